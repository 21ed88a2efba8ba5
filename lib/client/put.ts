/**
 * `put` as a verb, in two forms over one connection, the records of each
 * input record (with `"input": N`, the record's 1-based position) in input
 * order whatever the order the requests finish in (lib/put/ordered.ts).
 *
 * - **To a tool**: one call of `tool` per record, up to `concurrency` calls
 *   in flight; a record's fields are the arguments (its keys starting with
 *   `_` are not sent).
 * - **Operations**: each record names its own operation — `{"tool": NAME,
 *   "arguments": {…}}`, `{"resource": URI}`, `{"prompt": NAME, "arguments":
 *   {…}}` or `{"list": KIND}` (lib/put/operation.ts) — run in input order,
 *   one at a time, so a multi-step script against a stateful server is one
 *   run; each with the policy of a single call (lib/client/put_operations.ts).
 *   Concurrency above 1 and `args` are refused (UsageError): the order is
 *   the point, and each record carries its own arguments.
 *
 * Nothing is dropped: a record that is not a JSON object, names no valid
 * operation, has an argument the schema does not declare (unless
 * `allowUnknown`), or whose request fails, yields an error record and the
 * run goes on (unless `failFast`). After `maxTimeouts` requests in a row
 * timed out none is made: each remaining record gets a `not_attempted` error
 * record. When the server goes away, each remaining record gets a
 * `not_called` error record, then the error is thrown.
 *
 * {@linkcode put} takes and yields records as an async iterable (a program);
 * {@linkcode putLines} and {@linkcode putOperationLines} take NDJSON lines
 * and write NDJSON text (the CLI, at the speed of text).
 *
 * @module
 */

import { type ArgPairs, typedArgs } from "../args/collect.ts";
import { coerceArgs } from "../args/coerce.ts";
import { ArgumentError, InterruptedError, UsageError } from "../errors.ts";
import { violationHint } from "../args/check.ts";
import { unknownArguments } from "../args/declared.ts";
import type { NdjsonLine } from "../ndjson/read.ts";
import type { LineSink } from "../ndjson/write.ts";
import { argumentBuilder } from "../put/arguments.ts";
import { BreakerOpen, runOrdered, type RunResult, type RunStats } from "../put/ordered.ts";
import { callRunner, errorOutcomes } from "../put/outcome.ts";
import { notAttemptedRecord, notCalledRecord } from "../put/records.ts";
import { connectionTool } from "./call.ts";
import type { Connection } from "./connection.ts";
import { numbered, RecordQueue } from "./put_queue.ts";
import { callAsTask, wantsTask } from "./task.ts";
import { PUT_DEFAULTS } from "./options.ts";
import { schemaEngine } from "./schema_engine.ts";

export type { RunResult, RunStats } from "../put/ordered.ts";

/** One output record of `put`: a call's record or an error record, with `"input": N`. */
export type PutRecord = Record<string, unknown>;

/** Options of {@linkcode put} and {@linkcode putLines}. */
export interface PutOptions {
  /** Calls in flight at most (default 8); the operations form runs one at a time. */
  concurrency?: number;
  /** Stop at the first failed record. */
  failFast?: boolean;
  /** Stop calling after this many timeouts in a row; 0 never stops (default 3). */
  maxTimeouts?: number;
  /** The payload instead of the envelope (`--json`). */
  json?: boolean;
  /** Arguments every call starts from (a record's fields win); not for the operations form. */
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

/** Options of the operations form of {@linkcode put}: one request at a time, no shared arguments. */
export type PutOperationsOptions = Omit<PutOptions, "concurrency" | "args">;

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
export function put(
  conn: Connection,
  tool: string,
  records: AsyncIterable<unknown> | Iterable<unknown>,
  options?: PutOptions,
): AsyncGenerator<PutRecord, void, undefined>;
/**
 * Runs the operation each record names — `{"tool", "arguments"}`,
 * `{"resource"}`, `{"prompt", "arguments"}` or `{"list"}` — in input order,
 * one at a time, and yields the records of each (those `cat` gives for it,
 * with `input`); a record naming none or two is an error record.
 *
 * @example
 * ```ts
 * import { open, put } from "@jn/jn";
 *
 * await using conn = await open("@demo", { cwd: Deno.cwd(), env: Deno.env.toObject() });
 * const script = [
 *   { tool: "add", arguments: { a: 2, b: 40 } },
 *   { resource: "demo://items/3" },
 *   { prompt: "summarize", arguments: { topic: "MCP" } },
 * ];
 * for await (const record of put(conn, script)) {
 *   console.log(record.input, record.type); // 1 "tool_result", 1 "structured_result", 2 …
 * }
 * ```
 */
export function put(
  conn: Connection,
  records: AsyncIterable<unknown> | Iterable<unknown>,
  options?: PutOperationsOptions,
): AsyncGenerator<PutRecord, void, undefined>;
export function put(
  conn: Connection,
  ...rest:
    | [string, AsyncIterable<unknown> | Iterable<unknown>, PutOptions?]
    | [AsyncIterable<unknown> | Iterable<unknown>, PutOperationsOptions?]
): AsyncGenerator<PutRecord, void, undefined> {
  if (typeof rest[0] === "string") {
    const [tool, records, options = {}] = rest as [string, Iterable<unknown>, PutOptions?];
    return drained(
      conn,
      records,
      options,
      (lines, out) => putLines(conn, tool, lines, out, options),
    );
  }
  const [records, options = {}] = rest as [Iterable<unknown>, PutOperationsOptions?];
  return drained(
    conn,
    records,
    options,
    (lines, out) => putOperationLines(conn, lines, out, options),
  );
}

/** The records a run writes, yielded as it writes them; its fatal error or interruption thrown. */
async function* drained(
  conn: Connection,
  records: AsyncIterable<unknown> | Iterable<unknown>,
  options: { signal?: AbortSignal },
  start: (lines: AsyncIterable<NdjsonLine[]>, out: LineSink) => Promise<RunResult>,
): AsyncGenerator<PutRecord, void, undefined> {
  const queue = new RecordQueue();
  const run = start(numbered(records), queue);
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
    const failed = errorOutcomes(conn.secrets);
    // A tool that requires a task runs as one per line (lib/client/task.ts).
    const invoke = wantsTask(conn, info, false)
      ? (args: Record<string, unknown>) => callAsTask(conn, tool, args)
      : (args: Record<string, unknown>) => conn.session.callTool(tool, args);
    const callOne = callRunner(invoke, tool, { json: options.json === true, failed });
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
            ? notAttemptedRecord(line.number, { tool }, cause.timeouts)
            : notCalledRecord(line.number, { tool }, cause),
          false,
        ),
      onOutcome: options.onOutcome,
    });
  } catch (error) {
    throw conn.explain(error);
  }
}

/**
 * Runs the operation each NDJSON line of `batches` names, in input order,
 * one at a time, and writes each one's records to `out` as NDJSON text.
 * Refuses `concurrency` above 1 and `args` (see {@linkcode refuseForOperations}).
 */
export async function putOperationLines(
  conn: Connection,
  batches: AsyncIterable<readonly NdjsonLine[]>,
  out: LineSink,
  options: PutOptions = {},
): Promise<RunResult> {
  refuseForOperations(options);
  try {
    const { operationRunner } = await import("./put_operations.ts");
    const runner = await operationRunner(conn, {
      json: options.json,
      allowUnknown: options.allowUnknown,
    });
    options.onStart?.();
    return await runOrdered(batches, {
      concurrency: 1,
      failFast: options.failFast === true,
      maxTimeouts: options.maxTimeouts ?? PUT_DEFAULTS.maxTimeouts,
      out,
      signal: options.signal,
      handle: runner.handle,
      skip: runner.skip,
      onOutcome: options.onOutcome,
    });
  } catch (error) {
    throw conn.explain(error);
  }
}

/**
 * The options an operations put cannot take, refused before anything runs:
 * `concurrency` above 1 (its records run in order, one at a time: a later
 * one may depend on what an earlier one did) and `args` (each record gives
 * its own `arguments`, and one tool's arguments are not another's).
 */
export function refuseForOperations(options: Pick<PutOptions, "concurrency" | "args">): void {
  const concurrency = options.concurrency;
  if (concurrency !== undefined && concurrency > 1) {
    throw new UsageError(
      `Records that name their operation run in order, one at a time: --concurrency ${concurrency} does not apply`,
      { hint: "drop --concurrency; to call one tool K at a time, put to it (@server/TOOL)" },
    );
  }
  if (typedArgs(options.args).size > 0) {
    throw new UsageError(
      "Records that name their operation carry their own arguments: --arg, --args and " +
        "arguments in the target's query do not apply",
      { hint: 'give each record its "arguments", e.g. {"tool": "NAME", "arguments": {…}}' },
    );
  }
}
