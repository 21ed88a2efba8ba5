/**
 * The plainest calls without commander: `jn inspect SOURCE [--format F]`
 * and `jn cat SOURCE` (parsed by lib/cli/light.ts), the commands a cold
 * one-shot call makes most. They run the commands' own actions
 * (lib/cli/commands/inspect.ts and cat.ts) with the flags commander would
 * give them — the declared defaults, checked against commander by
 * tests/cli/light_test.ts — and report errors and outcomes as the CLI does
 * (lib/cli/report.ts, lib/cli/exit_codes.ts). What this skips: commander,
 * the CLI's program of every command, and Deno's Node-compatibility
 * modules commander loads (~20 ms of CPU and ~5 MiB for a cold `inspect`).
 *
 * main.ts imports this module by a computed URL (as it imports the CLI), so
 * that `deno run` does not analyse its graph (the SDK) for other commands.
 *
 * @module
 */

import type { Cli } from "./context.ts";
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
  let io: Io;
  try {
    io = denoIo();
  } catch {
    return undefined;
  }
  const cli: Cli = { io, debug: run.debug, quiet: run.quiet, outcome: "ok" };
  try {
    if (run.command === "inspect") {
      const { runInspect } = await import("./commands/inspect.ts");
      const raw: InspectFlags = { ...DEFAULT_CALL_FLAGS, format: run.format };
      await runInspect(cli, run.source!, raw);
    } else if (run.command === "cat") {
      const { catCommand } = await import("./commands/cat.ts");
      cli.outcome = await catCommand(cli, "cat", run.source!, { ...DEFAULT_CALL_FLAGS }, false);
    } else return undefined;
    return outcomeExitCode(cli.outcome);
  } catch (error) {
    return await reportFailure(error, cli);
  }
}

/**
 * Runs a plain `put TARGET` (lib/cli/put_light.ts) and returns its exit
 * code, or undefined when `args` is not one: the CLI then runs it.
 */
export async function runPutCall(args: readonly string[]): Promise<number | undefined> {
  const { runPutLight } = await import("./put_light.ts");
  return await runPutLight(args, DEFAULT_CALL_FLAGS);
}
