/**
 * jn's entry point: wires the process's argv and stdio to the CLI.
 * `jn --version`, the help texts (`--help`, `help CMD`, `CMD --help`), the
 * completion scripts (`completions SHELL`) and the completion of source
 * words (`__complete source WORD`) are answered before the CLI (commander,
 * Deno's Node compatibility and the command modules, ~150 ms to load) is
 * even imported: help and scripts come from lib/cli/help_text.ts,
 * generated from the CLI and checked by a test. `profile list` and `profile
 * info` run without commander too (lib/cli/light.ts), and so does `mcp
 * demo-server` (what `@demo` launches: the server without the CLI's modules).
 *
 * @module
 */

import { VERSION } from "./lib/version.ts";
import type * as Cli from "./lib/cli/main.ts";
import type * as Demo from "./lib/demo/server.ts";

/**
 * The CLI's module, named so that Deno does not analyse it when main.ts
 * starts: an import() of a literal path makes `deno run` build that
 * module's graph up front (commander, the SDK, ajv, zod, jq: ~15 ms of
 * npm resolution) even when the command never loads it. `deno compile`
 * is given it with `--include` (scripts/compile_args.ts).
 */
export const CLI_MODULE: string = new URL("./lib/cli/main.ts", import.meta.url).href;

if (import.meta.main) {
  if (Deno.args.length === 1 && (Deno.args[0] === "-V" || Deno.args[0] === "--version")) {
    Deno.exit(printText(`${VERSION}\n`));
  }
  const path = helpPath(Deno.args);
  // Commander wraps help to a terminal's width: the precomputed (80
  // columns) text is only right when stdout is not a terminal.
  if (path !== undefined && !Deno.stdout.isTerminal()) {
    const { HELP_TEXT } = await import("./lib/cli/help_text.ts");
    const text = Object.hasOwn(HELP_TEXT, path) ? HELP_TEXT[path] : undefined;
    if (text !== undefined) Deno.exit(printText(text));
  }
  if (Deno.args.length === 2 && Deno.args[0] === "completions") {
    const { COMPLETION_TEXT } = await import("./lib/cli/help_text.ts");
    const text = Object.hasOwn(COMPLETION_TEXT, Deno.args[1])
      ? COMPLETION_TEXT[Deno.args[1]]
      : undefined;
    if (text !== undefined) Deno.exit(printText(text));
  }
  if (Deno.args[0] === "__complete" && Deno.args[1] === "source" && Deno.args.length <= 3) {
    const printed = await completeSource(Deno.args[2] ?? "");
    if (printed) Deno.exit(0);
  }
  if (Deno.args.length === 2 && Deno.args[0] === "mcp" && Deno.args[1] === "demo-server") {
    Deno.exit(await runDemoServerLight());
  }
  if (Deno.args.includes("profile")) {
    const { runLight } = await import("./lib/cli/light.ts");
    const code = await runLight(Deno.args);
    if (code !== undefined) Deno.exit(code);
  }
  const { runProcess }: typeof Cli = await import(CLI_MODULE);
  Deno.exit(await runProcess(Deno.args));
}

/**
 * `jn mcp demo-server` without the CLI: lib/demo/server.ts only (~50 ms less
 * CPU and ~40% less start-up time for each `@demo` run). An error is
 * reported the CLI's way (lib/cli/main.ts reportFailure).
 */
async function runDemoServerLight(): Promise<number> {
  // A computed URL like CLI_MODULE: a literal import() would make `deno run` analyse the
  // server SDK's graph at every start. `deno compile` has it through CLI_MODULE's graph.
  const demo = new URL("./lib/demo/server.ts", import.meta.url).href;
  const { runDemoServer }: typeof Demo = await import(demo);
  try {
    await runDemoServer();
    return 0;
  } catch (error) {
    const { denoIo } = await import("./lib/cli/io.ts");
    const { reportFailure }: typeof Cli = await import(CLI_MODULE);
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
