/**
 * `deno task bundle [--out DIR]`: jn as a code-split ESM bundle (`deno
 * bundle --code-splitting`, esbuild): `main.js` starts it, and each
 * command's module (the command table's `module`, lib/cli/table/commands.ts)
 * and each other module lib/cli/main.ts loads so (`LOADED`: the parser's
 * second phase, with the real tables; the report of a command's error; the
 * help texts) is an entry point loaded by a computed URL when needed, as
 * the source tree loads it (`--version` and the help texts load no npm
 * code); what several of them share is in chunks.
 * npm packages are inlined (CommonJS converted); only `node:` modules stay
 * imports. It runs with `deno run --no-config <jn's permission flags>
 * DIR/main.js` and is what `deno task compile` compiles
 * (scripts/compile.ts); tests/cli/bundle_test.ts checks that it behaves as
 * the source tree does.
 *
 * Default output: dist/bundle (not committed).
 *
 * @module
 */

import { LOADED } from "../lib/cli/main.ts";
import { COMMANDS } from "../lib/cli/table/commands.ts";

/** The repository root. */
export const ROOT: string = new URL("..", import.meta.url).pathname.replace(/\/$/, "");
/** The bundle's entry point, relative to its folder. */
export const BUNDLE_MAIN = "main.js";

/**
 * The modules main.js loads by a computed URL, relative to the bundle's
 * folder (what `deno compile` must be given with `--include`): each
 * command's, and the others lib/cli/main.ts loads so (`LOADED`: the
 * parser's second phase, the report of what those throw, the help texts).
 */
export function bundledCommandModules(): string[] {
  return commandModules().map((module) => `lib/cli/${module.replace(/\.ts$/, ".js")}`);
}

/** The command table's modules and `LOADED`'s (relative to lib/cli/), each once. */
function commandModules(): string[] {
  const modules = COMMANDS.map((c) => c.module).filter((m) => m.endsWith(".ts"));
  return [...new Set([...modules, ...Object.values(LOADED)])];
}

/**
 * Builds the bundle into `out` (emptied first) and returns the path of its
 * entry point; throws with deno's message when bundling fails.
 */
export async function buildBundle(out: string): Promise<string> {
  await Deno.remove(out, { recursive: true }).catch((error) => {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  });
  // The commands, code-split: each loads its own chunks when it runs. Laid out as in the
  // source tree (their common folder is lib/cli/, so `--outdir` is out/lib/cli).
  await denoBundle([
    "--code-splitting",
    "--outdir",
    `${out}/lib/cli`,
    ...commandModules().map((module) => `${ROOT}/lib/cli/${module}`),
  ]);
  // The start-up — the parser and the compiled tables — as one file, what `--version`, `--help`
  // and a command's first parse read, and what only some runs need (a mistake's messages, the
  // report of an error) in chunks of its own. Its modules also live in the commands' chunks, apart: what crosses
  // between the two is plain data (the parsed call, the Io), a command's error is reported
  // by the report module beside it (lib/cli/main.ts), and state both need is global
  // (lib/profile/self_entry.ts).
  await denoBundle(["--code-splitting", "--outdir", out, `${ROOT}/scripts/bundle_entry.ts`]);
  const main = `${out}/${BUNDLE_MAIN}`;
  await Deno.rename(`${out}/bundle_entry.js`, main);
  return main;
}

/** Runs `deno bundle` with jn's config for Deno; throws with deno's message when it fails. */
async function denoBundle(args: string[]): Promise<void> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["bundle", "--config", `${ROOT}/deno.json`, "--platform", "deno", ...args],
    cwd: ROOT,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!output.success) {
    throw new Error(`deno bundle failed: ${new TextDecoder().decode(output.stderr).trim()}`);
  }
}

if (import.meta.main) {
  const args = Deno.args;
  let out = `${ROOT}/dist/bundle`;
  if (args.length === 2 && args[0] === "--out") out = args[1];
  else if (args.length > 0) {
    Deno.stderr.writeSync(new TextEncoder().encode("jn: usage: deno task bundle [--out DIR]\n"));
    Deno.exit(2);
  }
  const main = await buildBundle(out);
  Deno.stderr.writeSync(new TextEncoder().encode(`jn: wrote ${main}\n`));
}
