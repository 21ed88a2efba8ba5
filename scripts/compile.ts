/**
 * `deno task compile [--target TARGET]… [--out DIR]`: jn as one executable
 * per platform, built by `deno compile` with jn's permission set (deno.json
 * `permissions.jn`, the same flags as `deno task jn` and the tests), into
 * dist/ with a SHA256SUMS file (`sha256sum -c SHA256SUMS` checks it).
 *
 * It compiles jn's bundle (scripts/bundle.ts, built into a temporary folder
 * first): one ESM graph with npm packages inlined and the source tree's lazy
 * loading kept as chunks, which starts faster and lighter than the source
 * tree from `deno run` (docs/performance.md, "Start-up shortcuts"). The
 * bundled profiles need no `--include`: they are embedded as a module
 * (lib/profile/bundled_data.ts, generated from profiles/mcp/), and so is
 * everything else jn loads (JSON imports, lazy `import()` of literal paths,
 * npm packages); the entries main.js loads by a computed URL (the CLI,
 * the light calls, the light commands: scripts/compile_args.ts) are included.
 *
 * `deno compile` needs the Deno runtime (`denort`) of each target, which it
 * downloads from dl.deno.land (or takes from its cache). Where that host is
 * unreachable, the task stops with a message saying so; `DENORT_BIN=/path/to/
 * denort` uses a local runtime instead (it is one binary for one target, so
 * give exactly one `--target` with it, unless it is the host's).
 *
 * @module
 */

import { permissionFlags } from "../lib/sandbox/permissions.ts";
import { buildBundle } from "./bundle.ts";
import { compileArgs, isDenortDownloadFailure, TARGETS } from "./compile_args.ts";

const ROOT = new URL("..", import.meta.url).pathname.replace(/\/$/, "");

interface Options {
  targets: string[];
  out: string;
}

function parseOptions(args: string[]): Options {
  const targets: string[] = [];
  let out = `${ROOT}/dist`;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--target" && args[i + 1]) targets.push(args[++i]);
    else if (arg === "--out" && args[i + 1]) out = args[++i];
    else fail(`Unknown argument "${arg}": use --target TARGET (repeatable) and --out DIR`);
  }
  for (const target of targets) {
    if (!TARGETS.includes(target)) fail(`Unknown target "${target}": one of ${TARGETS.join(", ")}`);
  }
  const denort = Deno.env.get("DENORT_BIN");
  if (denort && targets.length === 0) targets.push(hostTarget());
  if (denort && targets.length > 1) {
    fail(`DENORT_BIN is the runtime of one target: give one --target, not ${targets.length}`);
  }
  return { targets: targets.length > 0 ? targets : [...TARGETS], out };
}

function hostTarget(): string {
  const { arch, os } = Deno.build;
  const suffix = os === "linux"
    ? "unknown-linux-gnu"
    : os === "darwin"
    ? "apple-darwin"
    : "pc-windows-msvc";
  return `${arch}-${suffix}`;
}

async function main(): Promise<void> {
  const options = parseOptions(Deno.args);
  const denort = Deno.env.get("DENORT_BIN");
  if (denort) {
    try {
      Deno.statSync(denort);
    } catch {
      fail(`DENORT_BIN "${denort}" does not exist`);
    }
  }
  await Deno.mkdir(options.out, { recursive: true });
  const bundle = await Deno.makeTempDir({ prefix: "jn-bundle-" });
  try {
    say(`jn: bundling into ${bundle}`);
    await buildBundle(bundle);
    await compileAll(options, bundle);
  } finally {
    await Deno.remove(bundle, { recursive: true });
  }
}

async function compileAll(options: Options, bundle: string): Promise<void> {
  const built: string[] = [];
  for (const target of options.targets) {
    const args = compileArgs(target, { bundle, out: options.out, flags: permissionFlags() });
    say(`jn: compiling ${target}`);
    const output = await new Deno.Command(Deno.execPath(), {
      args,
      cwd: ROOT,
      // Plain text: the error chain is parsed below.
      env: { NO_COLOR: "1" },
      stdout: "inherit",
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(output.stderr);
    if (!output.success) {
      if (isDenortDownloadFailure(stderr)) {
        // The innermost "N: cause" line of deno's error chain, e.g. a DNS failure.
        const cause = stderr.split("\n").filter((line) => /^\s+\d+: (?!<unknown>)/.test(line))
          .at(-1)?.replace(/^\s+\d+: /, "") ?? "see deno's output";
        fail(
          `Cannot compile for ${target}: deno compile needs the Deno runtime (denort) for it ` +
            `and could not download it from dl.deno.land (${cause})\n` +
            `hint: set DENORT_BIN to a denort binary for ${target} (denort-${target}.zip of ` +
            `the Deno ${Deno.version.deno} release) and give --target ${target}, or build ` +
            `in CI (.github/workflows/release.yml)`,
        );
      }
      await Deno.stderr.write(output.stderr);
      fail(`deno compile failed for ${target} (exit ${output.code})`);
    }
    built.push(args[args.indexOf("--output") + 1]);
  }
  const sums = await checksums(built);
  await Deno.writeTextFile(`${options.out}/SHA256SUMS`, sums);
  say(sums.trimEnd());
  say(`jn: wrote ${built.length} executable(s) and SHA256SUMS to ${options.out}`);
}

async function checksums(files: string[]): Promise<string> {
  const lines: string[] = [];
  for (const file of files) {
    const digest = await crypto.subtle.digest("SHA-256", await Deno.readFile(file));
    const hex = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
    lines.push(`${hex}  ${file.split("/").at(-1)}`);
  }
  return lines.join("\n") + "\n";
}

function say(text: string): void {
  Deno.stderr.writeSync(new TextEncoder().encode(text + "\n"));
}

/** A failure reported as one `jn:` message and exit 1 (after the bundle's folder is removed). */
class Failure extends Error {}

function fail(message: string): never {
  throw new Failure(message);
}

if (import.meta.main) {
  try {
    await main();
  } catch (error) {
    if (!(error instanceof Failure)) throw error;
    say(`jn: ${error.message}`);
    Deno.exit(1);
  }
}
