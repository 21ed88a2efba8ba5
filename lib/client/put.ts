/**
 * `put` as a verb: one tool call per input record over one connection, up to
 * `concurrency` calls in flight, the records of each call (with
 * `"input": N`, the record's 1-based position) in input order whatever the
 * order the calls finish in (lib/put/ordered.ts). Nothing is dropped: a
 * record that is not a JSON object, has a field the tool's schema does not
 * declare (unless `allowUnknown`), or whose call fails, yields an error
 * record and the run goes on (unless `failFast`); keys starting with `_` are
 * not sent. After `maxTimeouts` calls in a row timed out no further call is
 * made: each remaining record gets a `not_attempted` error record. When the
 * server goes away, each remaining record gets a `not_called` error record,
 * then the error is thrown.
 *
 * {@linkcode put} takes and yields records as an async iterable (a program);
 * {@linkcode putLines} takes NDJSON lines and writes NDJSON text (the CLI,
 * at the speed of text).
 *
 * @module
 */

import { type ArgPairs, typedArgs } from "../args/collect.ts";
import { coerceArgs } from "../args/coerce.ts";
import { ArgumentError, InterruptedError, TimeoutError } from "../errors.ts";
import { violationHint } from "../args/check.ts";
import { unknownArguments } from "../args/declared.ts";
import type { NdjsonLine } from "../ndjson/read.ts";
import type { LineSink } from "../ndjson/write.ts";
import { toolResultRecords } from "../output/records.ts";
import { redactDeep } from "../output/redact.ts";
import { jsonSafe } from "../output/visible.ts";
import { argumentBuilder } from "../put/arguments.ts";
import {
  BreakerOpen,
  type Outcome,
  runOrdered,
  type RunResult,
  type RunStats,
} from "../put/ordered.ts";
import {
  callFailure,
  notAttemptedRecord,
  notCalledRecord,
  numberedLines,
  toolErrorRecord,
} from "../put/records.ts";
import type { ToolCallResult } from "../types.ts";
import { connectionTool } from "./call.ts";
import type { Connection } from "./connection.ts";
import { callAsTask, wantsTask } from "./task.ts";
import { PUT_DEFAULTS } from "./options.ts";
import { schemaEngine } from "./schema_engine.ts";

export type { RunResult, RunStats } from "../put/ordered.ts";

/** One output record of `put`: a call's record or an error record, with `"input": N`. */
export type PutRecord = Record<string, unknown>;

/** Options of {@linkcode put} and {@linkcode putLines}. */
export interface PutOptions {
  /** Calls in flight at most (default 8). */
  concurrency?: number;
  /** Stop at the first failed record. */
  failFast?: boolean;
  /** Stop calling after this many timeouts in a row; 0 never stops (default 3). */
  maxTimeouts?: number;
  /** The payload instead of the envelope (`--json`). */
  json?: boolean;
  /** Arguments every call starts from (a record's fields win). */
  args?: ArgPairs | Record<string, unknown>;
  /**
   * Send arguments the tool's schema does not declare. By default one in
   * `args` is an ArgumentError before any record is read, and one in a
   * record makes that record an `invalid_arguments` error record.
   */
  allowUnknown?: boolean;
  /** Aborting it stops the run: calls in flight are cancelled. */
  signal?: AbortSignal;
  /** Called when the first record can be read (a meter's clock starts). */
  onStart?(): void;
  /** Called after each record's outcome (for progress meters). */
  onOutcome?(stats: Readonly<RunStats>): void;
}

/**
 * Calls `tool` once per record and yields the records of every call, in
 * input order.
 *
 * @example
 * ```ts
 * import { open, put } from "@jn/jn";
 *
 * await using conn = await open("@demo", { cwd: Deno.cwd(), env: Deno.env.toObject() });
 * for await (const record of put(conn, "echo", [{ text: "a" }, { text: "b", repeat: 2 }])) {
 *   console.log(record); // {type: "tool_result", input: 1, …}, then input 2
 * }
 * ```
 */
export async function* put(
  conn: Connection,
  tool: string,
  records: AsyncIterable<unknown> | Iterable<unknown>,
  options: PutOptions = {},
): AsyncGenerator<PutRecord, void, undefined> {
  const queue = new RecordQueue();
  const run = putLines(conn, tool, numbered(records), queue, options);
  run.then(() => queue.end(), (error) => queue.end(error));
  try {
    yield* queue.drain();
    const result = await run;
    if (result.fatal !== undefined) throw conn.explain(result.fatal);
    if (result.stop === "interrupted") {
      const reason = options.signal?.reason;
      throw reason instanceof InterruptedError ? reason : new InterruptedError();
    }
  } finally {
    // A consumer that leaves early is a reader that went away: the run stops reading.
    queue.close();
    await run.catch(() => {});
  }
}

/**
 * Calls `tool` once per NDJSON line of `batches` and writes each call's
 * records to `out` as NDJSON text, in input order.
 */
export async function putLines(
  conn: Connection,
  tool: string,
  batches: AsyncIterable<readonly NdjsonLine[]>,
  out: LineSink,
  options: PutOptions = {},
): Promise<RunResult> {
  try {
    const info = await connectionTool(conn, tool);
    const defaults = typedArgs(options.args);
    const unknown = unknownArguments(defaults.keys(), info.inputSchema);
    if (unknown.length > 0 && options.allowUnknown !== true) {
      throw new ArgumentError(tool, unknown, { hint: violationHint(unknown) });
    }
    const prepare = argumentBuilder(tool, {
      schema: info.inputSchema,
      defaults: coerceArgs(defaults, { schema: info.inputSchema }),
      engine: await schemaEngine(),
      allowUnknown: options.allowUnknown,
    });
    // Error records are jn's own words about a call: a violation's value or a server's error
    // text can echo a secret, so they are redacted (as `cat` redacts its errors on stderr).
    const secrets = conn.secrets;
    const failed = (record: unknown, called: boolean): Outcome => ({
      text: jsonSafe(JSON.stringify(secrets.length > 0 ? redactDeep(record, secrets) : record)) +
        "\n",
      failed: true,
      called,
    });
    // A tool that requires a task runs as one per line (lib/client/task.ts).
    const invoke = wantsTask(conn, info, false)
      ? (args: Record<string, unknown>) => callAsTask(conn, tool, args)
      : (args: Record<string, unknown>) => conn.session.callTool(tool, args);
    const callOne = callRunner(invoke, tool, options.json === true, failed);
    options.onStart?.();
    return await runOrdered(batches, {
      concurrency: options.concurrency ?? PUT_DEFAULTS.concurrency,
      failFast: options.failFast === true,
      maxTimeouts: options.maxTimeouts ?? PUT_DEFAULTS.maxTimeouts,
      out,
      signal: options.signal,
      handle: (line) => {
        const prepared = prepare(line);
        if (prepared.kind === "error") return failed(prepared.record, false);
        return callOne(line.number, prepared.args);
      },
      skip: (line, cause) =>
        failed(
          cause instanceof BreakerOpen
            ? notAttemptedRecord(line.number, tool, cause.timeouts)
            : notCalledRecord(line.number, tool, cause),
          false,
        ),
      onOutcome: options.onOutcome,
    });
  } catch (error) {
    throw conn.explain(error);
  }
}

function callRunner(
  invoke: (args: Record<string, unknown>) => Promise<ToolCallResult>,
  tool: string,
  json: boolean,
  failed: (record: unknown, called: boolean) => Outcome,
) {
  const seen = new WeakSet<object>();
  return (input: number, args: Record<string, unknown>): Promise<Outcome> =>
    invoke(args).then(
      (result) =>
        result.isError === true ? failed(toolErrorRecord(input, tool, result), true) : {
          // Exact JSON, with what a terminal would act on escaped (docs/output.md).
          text: jsonSafe(numberedLines(toolResultRecords(tool, result, { json }), input)),
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

/** Records as numbered lines, one batch each. */
async function* numbered(
  records: AsyncIterable<unknown> | Iterable<unknown>,
): AsyncGenerator<NdjsonLine[], void, undefined> {
  let number = 0;
  for await (const record of records) {
    yield [{ text: JSON.stringify(record) ?? String(record), number: ++number }];
  }
}

/** The records of a run, handed to an async consumer, with backpressure. */
class RecordQueue implements LineSink {
  #records: PutRecord[] = [];
  #high = 256;
  #done = false;
  #error: { error: unknown } | undefined;
  #closed = false;
  #onClosed: (() => void)[] = [];
  #wakeConsumer?: () => void;
  #wakeProducer?: () => void;

  get closed(): boolean {
    return this.#closed;
  }

  onClosed(listener: () => void): void {
    if (this.#closed) listener();
    else this.#onClosed.push(listener);
  }

  push(text: string): void {
    if (this.#closed) return;
    for (const line of text.split("\n")) if (line !== "") this.#records.push(JSON.parse(line));
    this.#wake();
  }

  ready(): Promise<void> | undefined {
    if (this.#records.length < this.#high || this.#closed) return undefined;
    return new Promise((resolve) => this.#wakeProducer = resolve);
  }

  flush(): Promise<void> {
    return Promise.resolve();
  }

  end(error?: unknown): void {
    this.#done = true;
    if (error !== undefined) this.#error = { error };
    this.#wake();
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const listener of this.#onClosed.splice(0)) listener();
    this.#wakeProducer?.();
  }

  async *drain(): AsyncGenerator<PutRecord, void, undefined> {
    for (;;) {
      if (this.#records.length > 0) {
        const record = this.#records.shift()!;
        if (this.#records.length < this.#high) {
          const resume = this.#wakeProducer;
          this.#wakeProducer = undefined;
          resume?.();
        }
        yield record;
        continue;
      }
      if (this.#done) {
        if (this.#error) throw this.#error.error;
        return;
      }
      await new Promise<void>((resolve) => this.#wakeConsumer = resolve);
    }
  }

  #wake(): void {
    const resume = this.#wakeConsumer;
    this.#wakeConsumer = undefined;
    resume?.();
  }
}
