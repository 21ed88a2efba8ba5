/**
 * `jn put TARGET` for an MCP target: stdin's NDJSON lines through
 * lib/client/put.ts over one session, in input order, with `"input": N` —
 * one `tools/call` per record when the target names a tool, the operation
 * each record names when it names none (lib/client/put_target.ts) — the
 * records to stdout, a progress line and a summary on stderr.
 *
 * Outcome: ok when every record succeeded (or stdout was closed by its
 * reader), failed records (exit 1) when any failed — including after
 * `--max-timeouts` calls in a row timed out and the rest were not attempted;
 * the server going away is its error (exit 4 or 5) once every remaining line
 * got a `not_called` record; Ctrl-C (or SIGHUP, SIGQUIT, SIGTERM) cancels the
 * calls in flight, which get `cancelled` records, and exits 130.
 *
 * @module
 */

import { putLines, putOperationLines, refuseForOperations } from "../client/put.ts";
import { preparePut } from "../client/put_target.ts";
import { resolveTarget, targetShortName } from "../client/resolve.ts";
import { InterruptedError } from "../errors.ts";
import { readLineBatches } from "../ndjson/read.ts";
import { NdjsonWriter } from "../ndjson/write.ts";
import type { RunResult } from "../client/put.ts";
import { withConnection } from "./connect.ts";
import type { Cli, Outcome } from "./context.ts";
import { PutMeter } from "./put_meter.ts";
import type { Invocation } from "./table/command.ts";
import type { PUT } from "./table/commands.ts";

/** What `put`'s flags parsed into. */
export type PutValues = Invocation<typeof PUT>["options"];

/** Runs `jn put` on an MCP target given as text; `given` names the flags given. */
export async function runPutTool(
  cli: Cli,
  targetText: string,
  flags: PutValues,
  given: ReadonlySet<string>,
): Promise<Outcome> {
  const { io } = cli;
  const target = await resolveTarget(targetText, { cwd: io.cwd, env: io.env });
  // What runs, and syntax errors in --arg/--args, are checked before any server starts.
  const { mode, args } = preparePut(target, { args: flags.args, arg: flags.arg });
  const options = {
    concurrency: given.has("concurrency") || mode.kind === "tool" ? flags.concurrency : undefined,
    failFast: flags.failFast === true,
    maxTimeouts: flags.maxTimeouts,
    json: flags.json === true,
    allowUnknown: flags.allowUnknown === true,
    args,
  };
  if (mode.kind === "operations") refuseForOperations(options);
  const label = `jn put ${mode.kind === "tool" ? mode.name : targetShortName(target)}`;
  const meter = new PutMeter(io, { label, quiet: cli.quiet });
  let interrupted: unknown;
  const result = await withConnection(cli, target, flags, (conn, signal) => {
    signal.addEventListener("abort", () => interrupted = signal.reason, { once: true });
    const lines = readLineBatches(io.stdin, { signal });
    const out = new NdjsonWriter(io.stdout);
    const run = { ...options, signal, onStart: () => meter.start(), onOutcome: meter.tick };
    return mode.kind === "tool"
      ? putLines(conn, mode.name, lines, out, run)
      : putOperationLines(conn, lines, out, run);
  });
  await meter.finish(result);
  return outcome(result, interrupted);
}

function outcome(result: RunResult, interrupted: unknown): Outcome {
  if (result.stop === "interrupted") {
    throw interrupted instanceof InterruptedError ? interrupted : new InterruptedError();
  }
  if (result.fatal !== undefined) throw result.fatal;
  if (result.stop === "broken_pipe") return "ok";
  return result.errors > 0 ? "failed_records" : "ok";
}
