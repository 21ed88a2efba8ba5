/**
 * lib/put: the engine of `put`: calls in flight in input order, error records,
 * a line's arguments.
 *
 * Runs one job per input line with up to K jobs at a time, and writes their
 * outputs in input order whatever order they finish in.
 *
 * Guarantees:
 * - ordered: a line's output is written after the outputs of every earlier
 *   line, and every line that was read is written (unless the reader of the
 *   output went away);
 * - bounded: at most `concurrency` lines are between "read" and "written"
 *   (the reorder window); when it is full, or when the writer has much
 *   waiting, no further line is read, so memory does not grow with the input
 *   and a slow reader slows the whole run down;
 * - after a fatal outcome (the server died) the remaining lines are still
 *   read and numbered, and each gets `skip()`'s outcome instead of a job;
 * - circuit breaker: after `maxTimeouts` consecutive timed-out outcomes (in
 *   the order they finish; any answered call resets the count) no further job
 *   is started: the remaining lines are still read and numbered, and each
 *   gets `skip()`'s outcome with a {@linkcode BreakerOpen} cause;
 * - `failFast`: after the first failed outcome no further line is read; the
 *   jobs already started finish and are written (they did run);
 * - the writer closing (broken pipe) or `signal` aborting stops reading at
 *   once; on abort the jobs in flight are awaited (they are expected to end
 *   promptly, being aborted by the same signal), on a closed writer they are not.
 *
 * @module
 */

import type { NdjsonLine } from "../ndjson/read.ts";
import type { LineSink } from "../ndjson/write.ts";

/** What one input line produced. */
export interface Outcome {
  /** The output for this line: zero or more NDJSON lines, each ending in `\n`. */
  text: string;
  /** The line yielded an error record. */
  failed: boolean;
  /** A call was made for it. */
  called: boolean;
  /** Set when no further call can be made (the server is gone): the cause. */
  fatal?: unknown;
  /** The call timed out (counts towards the circuit breaker). */
  timedOut?: boolean;
}

/** The cause given to `skip()` once the circuit breaker has tripped. */
export class BreakerOpen {
  /** How many calls in a row timed out. */
  readonly timeouts: number;
  constructor(timeouts: number) {
    this.timeouts = timeouts;
  }
}

/** Counts of a run so far. */
export interface RunStats {
  /** Non-blank input lines read. */
  records: number;
  /** Calls made (outcomes written with `called`). */
  calls: number;
  /** Outcomes written with `failed`. */
  errors: number;
  /** Outcomes written. */
  done: number;
}

/** Why a run stopped. */
export type StopReason = "end" | "fail_fast" | "broken_pipe" | "interrupted";

/** The end of a run. */
export interface RunResult extends RunStats {
  stop: StopReason;
  /** The first fatal cause, when the server went away. */
  fatal?: unknown;
  /** Set when the circuit breaker tripped (and no fatal cause came first). */
  breaker?: BreakerOpen;
}

/** Options of {@linkcode runOrdered}. */
export interface OrderedOptions {
  /** Jobs in flight at most (and the size of the reorder window); ≥ 1. */
  concurrency: number;
  /** Stop reading after the first failed outcome. */
  failFast: boolean;
  /** Stop starting jobs after this many timed-out outcomes in a row; 0 never stops. */
  maxTimeouts?: number;
  /** Where outputs go, in input order. */
  out: LineSink;
  /** Aborting it stops the run (Ctrl-C). */
  signal?: AbortSignal;
  /** The job of one line; its promise must not reject (failures are outcomes). */
  handle(line: NdjsonLine): Outcome | Promise<Outcome>;
  /** The outcome of a line read after a fatal outcome, or once the breaker tripped. */
  skip(line: NdjsonLine, cause: unknown): Outcome;
  /** Called after each outcome is queued for writing (for progress meters). */
  onOutcome?(stats: Readonly<RunStats>): void;
}

interface Slot {
  outcome?: Outcome;
}

/** Runs the jobs of every line of `batches`; resolves when the run is over. */
export async function runOrdered(
  batches: AsyncIterable<readonly NdjsonLine[]>,
  options: OrderedOptions,
): Promise<RunResult> {
  const { out, signal } = options;
  const limit = Math.max(1, Math.floor(options.concurrency));
  const stats: RunStats = { records: 0, calls: 0, errors: 0, done: 0 };
  const window: Slot[] = [];
  let stop: StopReason | undefined;
  let fatal: unknown;
  let breaker: BreakerOpen | undefined;
  let timeoutsInARow = 0;
  const maxTimeouts = options.maxTimeouts ?? 0;
  let bug: { error: unknown } | undefined;
  let wake: (() => void) | undefined;

  const drain = () => {
    while (window.length > 0 && window[0].outcome !== undefined) {
      const outcome = window.shift()!.outcome!;
      out.push(outcome.text);
      stats.done++;
      if (outcome.called) stats.calls++;
      if (outcome.failed) stats.errors++;
      options.onOutcome?.(stats);
    }
    const resume = wake;
    wake = undefined;
    resume?.();
  };
  const settle = (slot: Slot, outcome: Outcome) => {
    slot.outcome = outcome;
    if (outcome.fatal !== undefined && fatal === undefined) fatal = outcome.fatal;
    if (outcome.timedOut) timeoutsInARow++;
    else if (outcome.called) timeoutsInARow = 0;
    if (maxTimeouts > 0 && timeoutsInARow >= maxTimeouts) {
      breaker ??= new BreakerOpen(timeoutsInARow);
    }
    if (outcome.failed && options.failFast) stop ??= "fail_fast";
    drain();
  };
  const fail = (error: unknown) => {
    bug ??= { error };
    stop ??= "interrupted";
    wake?.();
  };
  const waitForSpace = () => new Promise<void>((resolve) => wake = resolve);

  const onAbort = () => {
    stop ??= "interrupted";
    wake?.();
  };
  signal?.addEventListener("abort", onAbort, { once: true });
  out.onClosed(() => {
    stop ??= "broken_pipe";
    wake?.();
  });
  try {
    read: for await (const batch of batches) {
      for (const line of batch) {
        while (stop === undefined && window.length >= limit) await waitForSpace();
        const pressure = out.ready();
        if (pressure !== undefined) await pressure;
        if (out.closed) stop ??= "broken_pipe";
        if (stop !== undefined) break read;
        stats.records++;
        const slot: Slot = {};
        window.push(slot);
        const cause = fatal ?? breaker;
        if (cause !== undefined) {
          settle(slot, options.skip(line, cause));
          continue;
        }
        let result: Outcome | Promise<Outcome>;
        try {
          result = options.handle(line);
        } catch (error) {
          fail(error);
          break read;
        }
        if (result instanceof Promise) result.then((o) => settle(slot, o), fail);
        else settle(slot, result);
      }
    }
    if (signal?.aborted) stop ??= "interrupted";
    if (out.closed) stop ??= "broken_pipe";
    if (stop !== "broken_pipe" && bug === undefined) {
      while (window.length > 0 && bug === undefined) await waitForSpace();
    }
    await out.flush();
  } finally {
    signal?.removeEventListener("abort", onAbort);
  }
  if (bug !== undefined) throw bug.error;
  if (out.closed) stop = "broken_pipe";
  const result: RunResult = { ...stats, stop: stop ?? "end", fatal };
  if (breaker !== undefined && fatal === undefined) result.breaker = breaker;
  return result;
}
