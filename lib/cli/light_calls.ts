/**
 * The plainest calls without commander: `jn inspect SOURCE [--format F]`
 * and `jn cat SOURCE` (parsed by lib/cli/light.ts), the commands a cold
 * one-shot call makes most, and a plain `jn put TARGET` (parsed by
 * lib/cli/put_light.ts). They run the commands' own actions
 * (lib/cli/commands/inspect.ts, cat.ts and put.ts) with the flags
 * commander would give them — the declared defaults, checked against
 * commander by tests/cli/light_test.ts — and report errors and outcomes as the CLI does
 * (lib/cli/report.ts, lib/cli/exit_codes.ts). What this skips: commander,
 * the CLI's program of every command, and Deno's Node-compatibility
 * modules commander loads (~20 ms of CPU and ~5 MiB for a cold `inspect`).
 *
 * main.ts imports this module by a computed URL (as it imports the CLI), so
 * that `deno run` does not analyse its graph (the SDK) for other commands.
 *
 * @module
 */

import type { Cli, Outcome } from "./context.ts";
import { outcomeExitCode } from "./exit_codes.ts";
import { denoIo, type Io } from "./io.ts";
import type { LightRun } from "./light.ts";
import { reportFailure } from "./report.ts";
import type { CatCommandFlags } from "./commands/cat.ts";
import type { InspectFlags } from "./commands/inspect.ts";

/** The flags commander gives a command when none is on the command line (their defaults). */
export const DEFAULT_CALL_FLAGS: CatCommandFlags = {
  timeout: "60s",
  connectTimeout: "60s",
  protocol: "auto",
  elicit: "auto",
};

/**
 * Runs a light `inspect` or `cat` and returns its exit code, or undefined
 * when the process's environment cannot even be read (the CLI then runs it,
 * to report that the usual way; nothing has started).
 */
export async function runCall(run: LightRun): Promise<number | undefined> {
  if (run.command === "inspect") {
    return await runCommand(run, async (cli) => {
      const { runInspect } = await import("./commands/inspect.ts");
      const raw: InspectFlags = { ...DEFAULT_CALL_FLAGS, format: run.format };
      await runInspect(cli, run.source!, raw);
      return "ok";
    });
  }
  if (run.command === "cat") {
    return await runCommand(run, async (cli) => {
      const { catCommand } = await import("./commands/cat.ts");
      return await catCommand(cli, "cat", run.source!, { ...DEFAULT_CALL_FLAGS }, false);
    });
  }
  return undefined;
}

/**
 * Runs a plain `put TARGET` (parsed by lib/cli/put_light.ts) and returns its
 * exit code, or undefined when `args` is not one (or the environment cannot
 * even be read): the CLI then runs it.
 */
export async function runPutCall(args: readonly string[]): Promise<number | undefined> {
  const { parsePutLight } = await import("./put_light.ts");
  const run = parsePutLight(args, DEFAULT_CALL_FLAGS);
  if (run === undefined) return undefined;
  return await runCommand(run, async (cli) => {
    const { runPut } = await import("./commands/put.ts");
    return await runPut(cli, run.target, run.raw);
  });
}

/**
 * Runs a command's action as commander's `action()` would, with the global
 * flags given, and returns the exit code; errors are reported as the CLI
 * reports them. Undefined when the environment cannot even be read.
 */
async function runCommand(
  globals: { debug: boolean; quiet: boolean },
  body: (cli: Cli) => Promise<Outcome>,
): Promise<number | undefined> {
  let io: Io;
  try {
    io = denoIo();
  } catch {
    return undefined;
  }
  const cli: Cli = { io, debug: globals.debug, quiet: globals.quiet, outcome: "ok" };
  try {
    cli.outcome = await body(cli);
    return outcomeExitCode(cli.outcome);
  } catch (error) {
    return await reportFailure(error, cli);
  }
}
