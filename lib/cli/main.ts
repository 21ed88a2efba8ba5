/**
 * lib/cli: argv → the client's options, `Io` (TTY, colour, stderr), exit
 * codes (`exit_codes.ts`); one module per command (`commands/`).
 *
 * The only place that knows argv, stdio, TTYs and exit codes: the command
 * line is read once, by lib/cli/parse.ts from the command and flag tables
 * (lib/cli/table/); the command's module is loaded only then (the help and
 * `--version` load none); lib/client does the work; and every run ends here
 * with one exit code — an error from any layer, or the outcome a command
 * returned, mapped by lib/cli/exit_codes.ts, the one map of SPEC §6.
 *
 * @module
 */

import { writeAll } from "../ndjson/write_all.ts";
import { VERSION } from "../version.ts";
import type { Cli } from "./context.ts";
import { denoIo, type Io } from "./io.ts";
import { parseArgs, plainCall } from "./parse.ts";
import { COMPILED, PROGRAM_HELP } from "./table/compiled.ts";
import type { CommandModule, LoadCommand } from "./context.ts";

// What only a command that runs, an error or help needs is imported where it is needed: before
// the command is known, start-up loads the parser and the compiled tables (plain data, jn's own
// help included) and no module of the tables themselves; a command line that gives flags loads
// those with the parser's second phase (call.ts), beside the command's module.

export type { LoadCommand };

/** The modules besides the commands' that {@linkcode main} loads with a {@linkcode LoadCommand}. */
export const LOADED = {
  /** The parser's second phase: the flags given, applied by the real tables. */
  call: "call.ts",
  /** Reports what a command or the second phase threw. */
  report: "report.ts",
  /** Every help text, rendered (a large module only help reads). */
  help: "table/compiled_help.ts",
} as const;

const loaded = new Map<string, Promise<CommandModule>>();

/** The source tree's loader (a module once loaded is kept: a session runs many commands). */
export const loadFromSource: LoadCommand = (module) => {
  let promise = loaded.get(module);
  if (promise === undefined) {
    promise = import(new URL(module, import.meta.url).href);
    loaded.set(module, promise);
  }
  return promise;
};

/** Runs jn with the given arguments and returns its exit code. */
export async function main(
  args: readonly string[],
  io: Io,
  load: LoadCommand = loadFromSource,
): Promise<number> {
  const cli: Cli = { io, outcome: "ok", debug: false, quiet: false, load };
  const loadAs = <M>(module: string) => load(module) as unknown as Promise<M>;
  try {
    const parsed = await parseArgs(args, COMPILED);
    cli.debug = parsed.globals.debug;
    cli.quiet = parsed.globals.quiet;
    switch (parsed.kind) {
      case "version":
        await write(io.stdout, `${VERSION}\n`);
        return 0;
      case "help": {
        const text = parsed.path.length === 0
          ? PROGRAM_HELP
          : (await loadAs<typeof import("./table/compiled_help.ts")>(LOADED.help))
            .helpFor(parsed.path);
        // `jn` alone is a usage error that shows what jn takes.
        if (parsed.bare) {
          await write(io.stderr, text);
          return 2;
        }
        await write(io.stdout, text);
        return 0;
      }
      case "run": {
        // Without flags the call is complete here (a missing argument is the start-up's error);
        // with flags, the second phase completes it beside the command's module.
        const plain = await plainCall(parsed);
        try {
          const call = plain ??
            await (await loadAs<typeof import("./call.ts")>(LOADED.call)).completeCall(parsed, io);
          // The exit codes load while the command's module does.
          const [module, codes] = await Promise.all([
            load(call.command.module),
            import("./exit_codes.ts"),
          ]);
          cli.outcome = (await module.run(cli, call) as Cli["outcome"] | undefined) ?? "ok";
          return codes.outcomeExitCode(cli.outcome);
        } catch (error) {
          const report = await loadAs<typeof import("./report.ts")>(LOADED.report);
          return await report.reportFailure(error, cli);
        }
      }
    }
  } catch (error) {
    const { reportFailure } = await import("./report.ts");
    return await reportFailure(error, cli);
  }
}

/**
 * Runs jn on the real process (argv, stdio, environment). Gathering the
 * environment already needs `--allow-env`: a refusal there is reported like
 * any other refused permission (exit 6), not as an uncaught exception.
 */
export async function runProcess(args: readonly string[], load?: LoadCommand): Promise<number> {
  let io: Io;
  try {
    io = denoIo();
  } catch (error) {
    const { isPermissionRefusal, refusalMessage } = await import("../errors.ts");
    if (!isPermissionRefusal(error)) throw error;
    const bytes = new TextEncoder().encode(`jn: ${refusalMessage(error)}\n`);
    await Deno.stderr.write(bytes);
    const { exitCodeFor } = await import("./exit_codes.ts");
    return exitCodeFor(error);
  }
  return await main(args, io, load);
}

/** Help and the version; a reader that went away is not an error. */
async function write(writer: Io["stdout"], text: string): Promise<void> {
  try {
    await writeAll(writer, new TextEncoder().encode(text));
  } catch {
    // A closed pipe while printing help is not worth an error.
  }
}
