/**
 * `jn put TARGET` for an MCP target: one `tools/call` per NDJSON record on
 * stdin, over one session, up to `--concurrency` calls in flight, records
 * written in input order with `"input": N` (SPEC §3).
 *
 * Exit status: 0 when every record succeeded (or stdout was closed by its
 * reader), 1 when any record failed, 4 (or 5) when the server went away —
 * the remaining lines are still read and each gets a `not_called` error
 * record —, 130 on Ctrl-C (the calls in flight are cancelled and get
 * `cancelled` records; the same for SIGHUP, SIGQUIT or SIGTERM).
 * After `--max-timeouts` calls in a row timed out (a server that hangs on
 * every call) no further call is made: each remaining line gets a
 * `not_attempted` record and jn exits 1.
 *
 * @module
 */

import { InterruptedError, TimeoutError, UsageError } from "../errors.ts";
import { toolResultRecords } from "../output/records.ts";
import { argumentBuilder } from "../put/arguments.ts";
import { readLineBatches } from "../ndjson/read.ts";
import { NdjsonWriter } from "../ndjson/write.ts";
import { BreakerOpen, type Outcome, runOrdered, type RunResult } from "../put/ordered.ts";
import {
  callFailure,
  notAttemptedRecord,
  notCalledRecord,
  numberedLines,
  toolErrorRecord,
} from "../put/records.ts";
import type { Session } from "../session/session.ts";
import { resolveTarget } from "../client/resolve.ts";
import { collectArgs } from "../args/collect.ts";
import { coerceArgs } from "../args/coerce.ts";
import { parseSource } from "../uri/parse.ts";
import { schemaEngine } from "../client/schema_engine.ts";
import { withSession } from "./connect.ts";
import type { Ctx } from "./main.ts";
import type { CallFlags } from "./options.ts";
import { PutMeter } from "./put_meter.ts";
import { findTool } from "./tool_args.ts";

/** Options of {@linkcode runPutTool}. */
export interface PutToolOptions {
  flags: CallFlags;
  /** Calls in flight at most. */
  concurrency: number;
  /** Stop at the first failed record. */
  failFast: boolean;
  /** Stop calling after this many timeouts in a row; 0 never stops. */
  maxTimeouts: number;
}

/** Runs `jn put` on an MCP target given as text. */
export async function runPutTool(
  ctx: Ctx,
  targetText: string,
  options: PutToolOptions,
): Promise<void> {
  const { flags } = options;
  const target = await resolveTarget(parseSource(targetText), { cwd: ctx.io.cwd, env: ctx.io.env });
  const operation = target.operation;
  if (operation.kind !== "tool") {
    throw new UsageError(`Cannot put to "${targetText}": it names no tool`, {
      hint: "put calls a tool once per record: add ?tool=NAME (see 'jn inspect SOURCE')",
    });
  }
  // Syntax errors in --arg/--args are reported before any server starts.
  const pairs = collectArgs({
    query: target.queryArgs,
    args: flags.args,
    arg: flags.arg,
    defaults: target.defaults,
  });
  const tool = operation.name;
  const meter = new PutMeter(ctx.io, { label: `jn put ${tool}`, quiet: ctx.quiet });
  let interrupted: unknown;
  const result = await withSession(ctx, target, flags, async (session, signal) => {
    signal.addEventListener("abort", () => interrupted = signal.reason, { once: true });
    const info = findTool(await session.listTools(), tool, target.name);
    const prepare = argumentBuilder(tool, {
      schema: info.inputSchema,
      defaults: coerceArgs(pairs, { schema: info.inputSchema }),
      engine: await schemaEngine(),
    });
    const call = callRunner(session, tool, flags.json);
    meter.start();
    return await runOrdered(readLineBatches(ctx.io.stdin, { signal }), {
      concurrency: options.concurrency,
      failFast: options.failFast,
      maxTimeouts: options.maxTimeouts,
      out: new NdjsonWriter(ctx.io.stdout),
      signal,
      handle: (line) => {
        const prepared = prepare(line);
        if (prepared.kind === "error") return failed(prepared.record, false);
        return call(line.number, prepared.args);
      },
      skip: (line, cause) =>
        failed(
          cause instanceof BreakerOpen
            ? notAttemptedRecord(line.number, tool, cause.timeouts)
            : notCalledRecord(line.number, tool, cause),
          false,
        ),
      onOutcome: meter.tick,
    });
  });
  await meter.finish(result);
  finish(ctx, result, interrupted);
}

function callRunner(session: Session, tool: string, json: boolean) {
  const seen = new WeakSet<object>();
  return (input: number, args: Record<string, unknown>): Promise<Outcome> =>
    session.callTool(tool, args).then(
      (result) =>
        result.isError === true ? failed(toolErrorRecord(input, tool, result), true) : {
          text: numberedLines(toolResultRecords(tool, result, { json }), input),
          failed: false,
          called: true,
        },
      (error) => {
        const failure = callFailure(input, tool, { error, seen });
        return {
          ...failed(failure.record, true),
          fatal: failure.fatal ? error : undefined,
          timedOut: error instanceof TimeoutError,
        };
      },
    );
}

function failed(record: unknown, called: boolean): Outcome {
  return { text: JSON.stringify(record) + "\n", failed: true, called };
}

function finish(ctx: Ctx, result: RunResult, interrupted: unknown): void {
  if (result.stop === "interrupted") {
    throw interrupted instanceof InterruptedError ? interrupted : new InterruptedError();
  }
  if (result.fatal !== undefined) throw result.fatal;
  if (result.stop === "broken_pipe") {
    ctx.exitCode = 0;
    return;
  }
  ctx.exitCode = result.errors > 0 ? 1 : 0;
}
