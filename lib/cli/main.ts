/**
 * lib/cli: argv → the client's options, `Io` (TTY, colour, stderr), exit
 * codes (`exit_codes.ts`); one module per command.
 *
 * The only place that knows argv, stdio, TTYs and exit codes: lib/client
 * does the work, `Io` is the process boundary, and every run ends here with
 * one exit code — an error from any layer, or the outcome a command
 * returned, mapped by lib/cli/exit_codes.ts, the one map of SPEC §6.
 *
 * Commands are registered here and implemented in `commands/`, loaded on
 * demand so that `--version`, `--help` and friends load no MCP code at all.
 *
 * @module
 */

import { Command, CommanderError } from "commander";
import { stateWriteError, UsageError } from "../errors.ts";
import { isPermissionRefusal, refusalMessage } from "../sandbox/permissions.ts";
import { VERSION } from "../version.ts";
import { registerCommands } from "./commands/registry.ts";
import type { Cli } from "./context.ts";
import { ExitCode, exitCodeFor, outcomeExitCode } from "./exit_codes.ts";
import { commanderUsageError, refuseUnknownCommand } from "./unknown_command.ts";
import { denoIo, type Io } from "./io.ts";
import { reportError } from "./report.ts";

/** Runs jn with the given arguments and returns its exit code. */
export async function main(args: string[], io: Io): Promise<number> {
  const ctx: Cli = { io, outcome: "ok", debug: args.includes("--debug"), quiet: false };
  // Commander prints help and versions synchronously; collect it and write it
  // (awaited) before returning, or the process may exit with it unwritten.
  const printed: { out: string[]; err: string[] } = { out: [], err: [] };
  let program: Command | undefined;
  try {
    program = await buildProgram(ctx, args, printed);
    refuseUnknownCommand(program, args);
    await program.parseAsync(args, { from: "user" });
    return outcomeExitCode(ctx.outcome);
  } catch (caught) {
    if (caught instanceof CommanderError) {
      return await commanderExit(caught, ctx, { program, args, printed });
    }
    const error = stateWriteError(caught) ?? caught;
    await reportError(error, ctx);
    return exitCodeFor(error);
  } finally {
    await writeText(io.stdout, printed.out.join(""));
    await writeText(io.stderr, printed.err.join(""));
  }
}

/**
 * Runs jn on the real process (argv, stdio, environment). Gathering the
 * environment already needs `--allow-env`: a refusal there is reported like
 * any other refused permission (exit 6), not as an uncaught exception.
 */
export async function runProcess(args: string[]): Promise<number> {
  let io: Io;
  try {
    io = denoIo();
  } catch (error) {
    if (!isPermissionRefusal(error)) throw error;
    const bytes = new TextEncoder().encode(`jn: ${refusalMessage(error)}\n`);
    await Deno.stderr.write(bytes);
    return exitCodeFor(error);
  }
  return await main(args, io);
}

export { reportFailure } from "./report.ts";

async function buildProgram(
  ctx: Cli,
  args: string[],
  printed: { out: string[]; err: string[] },
): Promise<Command> {
  const program = new Command("jn")
    .description(
      "A command-line client for the Model Context Protocol: inspect and call any MCP server, NDJSON out.",
    )
    .version(VERSION, "-V, --version", "print jn's version")
    .option("--debug", "stack traces and a protocol log on stderr")
    .option("-q, --quiet", "no warnings, progress or summaries on stderr")
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({
      writeOut: (text) => void printed.out.push(text),
      writeErr: (text) => void printed.err.push(text),
      outputError: () => {/* reported by commanderExit() */},
    })
    .hook("preAction", (_program, action) => {
      const globals = action.optsWithGlobals() as { debug?: boolean; quiet?: boolean };
      ctx.debug = globals.debug === true;
      ctx.quiet = globals.quiet === true;
    })
    .addHelpText("after", HELP_FOOTER);
  await registerCommands(program, ctx, args);
  return program;
}

const HELP_FOOTER = `
Sources:
  mcp+uvx://PKG[/CMD]   mcp+npx://PKG   mcp+python://PATH   mcp+node://PATH
  mcp+deno://PATH       mcp+https://HOST/PATH               @profile[/tool]
  Query keys: tool=, resource=, prompt=, list=tools|resources|templates|prompts,
  task=ID, command= (repeatable, appended to the server's argv); other keys are
  arguments.

Examples:
  jn inspect "mcp+npx://@modelcontextprotocol/server-everything"
  jn cat "mcp+python://./examples/server.py?tool=search&q=BRAF"
  jn head -n 3 --json "@demo/list_items?count=20"

Exit codes: 0 ok, 1 tool error, 2 usage, 3 configuration, 4 launch/connection,
5 protocol, 6 sandbox, 70 internal, 130 interrupted.`;

async function writeText(writer: Io["stdout"], text: string): Promise<void> {
  if (text === "") return;
  const bytes = new TextEncoder().encode(text);
  let offset = 0;
  try {
    while (offset < bytes.length) offset += await writer.write(bytes.subarray(offset));
  } catch {
    // A closed pipe while printing help is not worth an error.
  }
}

async function commanderExit(
  error: CommanderError,
  ctx: Cli,
  run: { program?: Command; args: string[]; printed: { err: string[] } },
): Promise<number> {
  switch (error.code) {
    case "commander.helpDisplayed":
    case "commander.version":
      return ExitCode.ok;
    case "commander.help":
      // Commander shows help with an error status when a command that only
      // groups subcommands (or jn itself) is run without one.
      if (error.exitCode === 0) return ExitCode.ok;
      await missingSubcommand(ctx, run);
      return ExitCode.usage;
    case "commander.executeSubCommandAsync":
      return error.exitCode;
  }
  await reportError(commanderUsageError(error, run.program, run.args), ctx);
  return ExitCode.usage;
}

/**
 * `jn profile` alone: a usage error that lists the subcommands (the full
 * help stays for `jn` alone, and for `jn help profile`).
 */
async function missingSubcommand(
  ctx: Cli,
  run: { program?: Command; args: string[]; printed: { err: string[] } },
): Promise<void> {
  let command = run.program;
  const path: string[] = [];
  for (const word of run.args.filter((arg) => !arg.startsWith("-"))) {
    const sub = command?.commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (sub === undefined) break;
    command = sub;
    path.push(sub.name());
  }
  if (command === undefined || path.length === 0) return;
  run.printed.err.length = 0;
  const names = command.commands.map((c) => c.name()).filter((name) => name !== "help");
  const full = ["jn", ...path].join(" ");
  await reportError(
    new UsageError(`Missing a subcommand after "${full}"`, {
      hint: `${full} has: ${names.join(", ")} (see 'jn help ${path.join(" ")}')`,
    }),
    ctx,
  );
}
