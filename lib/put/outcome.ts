/**
 * The {@linkcode Outcome} of one line of `put`: the records of what it ran
 * (with `"input": N`), or its one error record.
 *
 * Guarantees: every outcome's text is exact JSON with what a terminal would
 * act on escaped (lib/output/visible.ts); an error record — jn's own words
 * about a call, whose violation values or server error text can echo a
 * secret — has the connection's secrets redacted (as `cat` redacts its
 * errors on stderr). A tool that answers `isError` gives one `tool_error`
 * record; a call that throws is classified by {@linkcode callFailure}, and
 * one after which no further call can succeed carries it as `fatal`.
 *
 * @module
 */

import { TimeoutError } from "../errors.ts";
import { toolResultRecords } from "../output/records.ts";
import { redactDeep } from "../output/redact.ts";
import { jsonSafe } from "../output/visible.ts";
import type { ToolCallResult } from "../types.ts";
import type { Outcome } from "./ordered.ts";
import { callFailure, numberedLines, type Subject, toolErrorRecord } from "./records.ts";

/** Makes the outcome of an error record; `called` says whether a request was made for it. */
export type FailedOutcome = (record: unknown, called: boolean) => Outcome;

/** The maker of error outcomes of a connection whose secrets are `secrets`. */
export function errorOutcomes(secrets: readonly string[]): FailedOutcome {
  return (record, called) => ({
    text: jsonSafe(JSON.stringify(secrets.length > 0 ? redactDeep(record, secrets) : record)) +
      "\n",
    failed: true,
    called,
  });
}

/** The outcome of records a request produced for line `input`. */
export function recordsOutcome(records: readonly unknown[], input: number): Outcome {
  return { text: jsonSafe(numberedLines(records, input)), failed: false, called: true };
}

/**
 * The outcome of a request that threw for line `input`: its error record
 * (with the error's hint, when `hint` and it has one), `fatal` when the
 * session is gone, `timedOut` for the circuit breaker. `seen` is the run's
 * memory of protocol errors (lib/put/records.ts).
 */
export function thrownOutcome(
  input: number,
  subject: Subject,
  context: { error: unknown; seen: WeakSet<object>; failed: FailedOutcome; hint?: boolean },
): Outcome {
  const { error } = context;
  const failure = callFailure(input, subject, { error, seen: context.seen });
  const hint = context.hint === true && error instanceof Error
    ? (error as { hint?: unknown }).hint
    : undefined;
  const record = typeof hint === "string" ? { ...failure.record, hint } : failure.record;
  return {
    ...context.failed(record, true),
    fatal: failure.fatal ? error : undefined,
    timedOut: error instanceof TimeoutError,
  };
}

/**
 * The function that calls `tool` through `invoke` for a line and gives its
 * outcome: the call's records (with `json`, the payload), its `tool_error`
 * record, or the record of what it threw. `seen` is the run's (one per
 * runner by default).
 */
export function callRunner(
  invoke: (args: Record<string, unknown>) => Promise<ToolCallResult>,
  tool: string,
  options: { json: boolean; failed: FailedOutcome; seen?: WeakSet<object> },
): (input: number, args: Record<string, unknown>) => Promise<Outcome> {
  const { json, failed } = options;
  const seen = options.seen ?? new WeakSet<object>();
  return (input, args) =>
    invoke(args).then(
      (result) =>
        result.isError === true
          ? failed(toolErrorRecord(input, tool, result), true)
          : recordsOutcome(toolResultRecords(tool, result, { json }), input),
      (error) => thrownOutcome(input, { tool }, { error, seen, failed }),
    );
}
