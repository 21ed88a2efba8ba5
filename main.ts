/**
 * jn's entry point: wires the process's argv and stdio to the CLI.
 * `jn --version`, the help texts (`--help`, `help CMD`, `CMD --help`), the
 * completion scripts (`completions SHELL`) and the completion of source
 * words (`__complete source WORD`) are answered before the CLI (commander,
 * Deno's Node compatibility and the command modules, ~150 ms to load) is
 * even imported: help and scripts come from lib/cli/help_text.ts and
 * lib/cli/completion_text.ts (one module per shell), generated from the CLI
 * and checked by a test. `profile list` and `profile info` run without
 * commander too (lib/cli/light.ts), and so do the plainest calls, `inspect
 * SOURCE` and `cat SOURCE` (lib/cli/light_calls.ts), a plain `put TARGET`
 * (lib/cli/put_light.ts) and, from source, `mcp demo-server` (what `@demo`
 * launches: the server without the CLI's modules).
 *
 * @module
 */

import { VERSION } from "./lib/version.ts";
import type * as Cli from "./lib/cli/main.ts";
import type * as Calls from "./lib/cli/light_calls.ts";
import type * as Light from "./lib/cli/light.ts";
import type * as Demo from "./lib/demo/server.ts";

/**
 * The CLI's module, named so that Deno does not analyse it when main.ts
 * starts: an import() of a literal path makes `deno run` build that
 * module's graph up front (commander, the SDK, ajv, zod, jq: ~15 ms of
 * npm resolution) even when the command never loads it. `deno compile`
 * is given it with `--include` (scripts/compile_args.ts).
 */
export const CLI_MODULE: string = new URL("./lib/cli/main.ts", import.meta.url).href;

/** How the start-up loads the modules it imports by a computed URL. */
export interface Loaders {
  /** The CLI (lib/cli/main.ts). */
  cli: () => Promise<typeof Cli>;
  /** `inspect SOURCE`, `cat SOURCE` and `put TARGET` without commander (lib/cli/light_calls.ts). */
  calls: () => Promise<typeof Calls>;
  /**
   * The commands answered without commander (lib/cli/light.ts): by a
   * computed URL too, so that other commands do not have Deno read and scan
   * its graph (`profile info`'s ~20 modules) at start-up; the bundle builds
   * it as one file (scripts/bundle.ts).
   */
  light: () => Promise<typeof Light>;
  /**
   * `jn mcp demo-server` without the CLI (lib/demo/server.ts), from source
   * only: without it (the bundle), the CLI runs the demo server.
   */
  demo?: () => Promise<typeof Demo>;
}

/**
 * The modules main.ts imports by a computed URL, named so that Deno does not
 * analyse them when main.ts starts (see {@linkcode CLI_MODULE}).
 */
export const SOURCE_LOADERS: Loaders = {
  cli: () => import(CLI_MODULE),
  calls: () => import(new URL("./lib/cli/light_calls.ts", import.meta.url).href),
  light: () => import(new URL("./lib/cli/light.ts", import.meta.url).href),
  demo: () => import(new URL("./lib/demo/server.ts", import.meta.url).href),
};

/** Words of the commands lib/cli/light.ts may answer. */
const LIGHT_WORDS = new Set(["profile", "inspect", "cat"]);

if (import.meta.main) {
  await start(Deno.args, SOURCE_LOADERS);
}

/**
 * Runs jn on `args` and exits: the shortcuts first, then the CLI. `loaders`
 * load the modules imported by a computed URL: those of the source tree
 * here; the bundle's entry (scripts/bundle_entry.ts) gives its own.
 */
export async function start(args: string[], loaders: Loaders): Promise<never> {
  if (args.length === 1 && (args[0] === "-V" || args[0] === "--version")) {
    Deno.exit(printText(`${VERSION}\n`));
  }
  const path = helpPath(args);
  // Commander wraps help to a terminal's width: the precomputed (80
  // columns) text is only right when stdout is not a terminal.
  if (path !== undefined && !Deno.stdout.isTerminal()) {
    const { HELP_TEXT } = await import("./lib/cli/help_text.ts");
    const text = Object.hasOwn(HELP_TEXT, path) ? HELP_TEXT[path] : undefined;
    if (text !== undefined) Deno.exit(printText(text));
  }
  if (args.length === 2 && args[0] === "completions") {
    const { COMPLETION_SCRIPTS } = await import("./lib/cli/completion_text.ts");
    if (Object.hasOwn(COMPLETION_SCRIPTS, args[1])) {
      Deno.exit(printText(await COMPLETION_SCRIPTS[args[1]]()));
    }
  }
  if (args[0] === "__complete" && args[1] === "source" && args.length <= 3) {
    const printed = await completeSource(args[2] ?? "");
    if (printed) Deno.exit(0);
  }
  if (args.length === 2 && args[0] === "mcp" && args[1] === "demo-server" && loaders.demo) {
    Deno.exit(await runDemoServerLight(loaders.demo));
  }
  if (args.some((arg) => LIGHT_WORDS.has(arg))) {
    const { parseLight, runLight } = await loaders.light();
    const run = parseLight(args);
    const code = run === undefined
      ? undefined
      : run.command === "inspect" || run.command === "cat"
      ? await (await loaders.calls()).runCall(run)
      : await runLight(run);
    if (code !== undefined) Deno.exit(code);
  }
  if (args.includes("put")) {
    const code = await (await loaders.calls()).runPutCall(args);
    if (code !== undefined) Deno.exit(code);
  }
  const { runProcess } = await loaders.cli();
  Deno.exit(await runProcess(args));
}

/**
 * `jn mcp demo-server` without the CLI: lib/demo/server.ts only (~50 ms less
 * CPU and ~40% less start-up time for each `@demo` run). An error is
 * reported the CLI's way (lib/cli/report.ts).
 */
async function runDemoServerLight(load: () => Promise<typeof Demo>): Promise<number> {
  try {
    const { runDemoServer } = await load();
    await runDemoServer();
    return 0;
  } catch (error) {
    const { denoIo } = await import("./lib/cli/io.ts");
    const { reportFailure } = await import("./lib/cli/report.ts");
    return await reportFailure(error, { io: denoIo(), debug: false, quiet: false, outcome: "ok" });
  }
}

/**
 * The command path whose help `args` asks for (`""` for jn itself), or
 * undefined when `args` asks for anything else (the CLI then decides).
 */
export function helpPath(args: readonly string[]): string | undefined {
  const isWord = (arg: string) => /^[a-z][a-z0-9-]*$/.test(arg);
  if (args.length === 0) return undefined;
  if (args[0] === "help") return args.slice(1).every(isWord) ? args.slice(1).join(" ") : undefined;
  const last = args[args.length - 1];
  if (last !== "--help" && last !== "-h") return undefined;
  const words = args.slice(0, -1);
  return words.every(isWord) ? words.join(" ") : undefined;
}

/**
 * A shell's completion of a source word, without the CLI. Any failure
 * (a refused permission, a broken profile) returns false and the CLI runs
 * the same request, to report it the usual way.
 */
async function completeSource(word: string): Promise<boolean> {
  try {
    const { sourceCandidates } = await import("./lib/cli/source_candidates.ts");
    const candidates = await sourceCandidates(word, {
      cwd: Deno.cwd(),
      env: Deno.env.toObject(),
    });
    printText(candidates.map((candidate) => `${candidate}\n`).join(""));
    return true;
  } catch {
    return false;
  }
}

function printText(text: string): number {
  const bytes = new TextEncoder().encode(text);
  try {
    for (let offset = 0; offset < bytes.length;) {
      offset += Deno.stdout.writeSync(bytes.subarray(offset));
    }
  } catch {
    // A closed stdout is not worth an error (as with --help).
  }
  return 0;
}
