/**
 * The records `put` writes (SPEC §3): a call's records with `"input": N`
 * added, and `{"type":"error","input":N,"tool",…,"kind","error"}` for a line
 * that could not be called or whose call failed. The field after `input`
 * names what the line was about (its {@linkcode Subject}): `tool` when
 * putting to a tool; with an operations target (lib/put/operation.ts) the
 * record's own operation (`tool`, `resource`, `prompt` or `list`), or none
 * when the line names no valid operation.
 *
 * Guarantees: `input` is the 1-based physical line number of stdin; it comes
 * right after `type`; a `--json` payload that is not an object, or that has a
 * field of its own named `input`, is wrapped as `{"input":N,"value":…}` so
 * nothing of it is overwritten. Error records keep what the failure carried
 * (the tool's content, the JSON-RPC code and data, the offending line).
 *
 * @module
 */

import {
  type ArgumentViolation,
  ConnectionError,
  InterruptedError,
  LaunchError,
  ProtocolError,
  TimeoutError,
} from "../errors.ts";
import type { ToolCallResult } from "../types.ts";

/** What an error record is about: the operation of its line, when known. */
export type Subject =
  | { tool: string }
  | { resource: string }
  | { prompt: string }
  | { list: string }
  | Record<string, never>;

/** Why an input line yielded an error record. */
export type PutErrorKind =
  /** The line is not JSON. */
  | "invalid_json"
  /** The line is JSON but not an object. */
  | "not_object"
  /** Operations target: the record names no operation, two, or one badly; not run. */
  | "invalid_operation"
  /** Operations target: no such tool (or one the profile's curation refuses); not called. */
  | "unknown_tool"
  /** Operations target: no such prompt; not asked. */
  | "unknown_prompt"
  /** Operations target: a tool of the profile that the server no longer offers; not called. */
  | "drift"
  /** The record fails the tool's inputSchema; not called. */
  | "invalid_arguments"
  /** The tool answered `isError: true`. */
  | "tool_error"
  /** The server answered the call with a JSON-RPC error. */
  | "rpc_error"
  /** The call took longer than `--timeout`. */
  | "timeout"
  /** The server sent a malformed answer. */
  | "protocol"
  /** The server went away during this call. */
  | "connection"
  /** The server had gone away before this line was read; not called. */
  | "not_called"
  /** Too many calls in a row had timed out before this line was read; not called. */
  | "not_attempted"
  /** Ctrl-C or SIGTERM cancelled the call. */
  | "cancelled";

/** An error record. */
export interface PutErrorRecord {
  type: "error";
  input: number;
  kind: PutErrorKind;
  error: string;
  [key: string]: unknown;
}

/** Builds an error record; `extra` fields follow the fixed ones. */
export function errorRecord(
  input: number,
  subject: Subject,
  problem: { kind: PutErrorKind; error: string },
  extra: Record<string, unknown> = {},
): PutErrorRecord {
  return {
    type: "error",
    input,
    ...subject,
    kind: problem.kind,
    error: problem.error,
    ...extra,
  };
}

/** The error record of a line that is not a JSON object. */
export function badLineRecord(
  input: number,
  subject: Subject,
  problem: { kind: "invalid_json" | "not_object"; message: string; line: string },
): PutErrorRecord {
  return errorRecord(input, subject, { kind: problem.kind, error: problem.message }, {
    line: problem.line,
  });
}

/** The error record of a record that fails the tool's schema. */
export function invalidArgumentsRecord(
  input: number,
  tool: string,
  details: { violations: ArgumentViolation[]; record: unknown },
): PutErrorRecord {
  const list = details.violations.map((v) => (v.path ? `${v.path} ${v.message}` : v.message));
  return errorRecord(input, { tool }, {
    kind: "invalid_arguments",
    error: `Invalid arguments for tool "${tool}": ${list.join("; ")}`,
  }, { violations: details.violations, record: details.record });
}

/** The error record of an `isError` result: the tool's content is kept whole. */
export function toolErrorRecord(
  input: number,
  tool: string,
  result: ToolCallResult,
): PutErrorRecord {
  const texts = (Array.isArray(result.content) ? result.content : [])
    .filter((item) => item.type === "text" && typeof item.text === "string")
    .map((item) => (item.text as string).trim())
    .filter((text) => text !== "");
  const what = texts.length > 0 ? `: ${texts.join(" ")}` : "";
  const extra: Record<string, unknown> = { content: result.content ?? [] };
  if (result.structuredContent !== undefined) extra.structuredContent = result.structuredContent;
  return errorRecord(input, { tool }, {
    kind: "tool_error",
    error: `Tool "${tool}" answered with an error${what}`,
  }, extra);
}

/** How a failed call is reported, and whether the session is still usable. */
export interface CallFailure {
  record: PutErrorRecord;
  /** True when no further call can succeed (the server is gone, or the stream is garbled). */
  fatal: boolean;
}

/**
 * Classifies the error a call threw. `seen` remembers protocol errors without
 * a JSON-RPC code: the session throws the same one for every request once
 * its stream is garbled, so meeting it twice means the session is dead.
 */
export function callFailure(
  input: number,
  subject: Subject,
  context: { error: unknown; seen: WeakSet<object> },
): CallFailure {
  const { error } = context;
  const message = error instanceof Error ? error.message : String(error);
  const record = (kind: PutErrorKind, extra: Record<string, unknown> = {}) =>
    errorRecord(input, subject, { kind, error: message }, extra);
  if (error instanceof InterruptedError) return { record: record("cancelled"), fatal: false };
  if (error instanceof TimeoutError) return { record: record("timeout"), fatal: false };
  if (error instanceof ConnectionError || error instanceof LaunchError) {
    return { record: record("connection"), fatal: true };
  }
  if (error instanceof ProtocolError) {
    if (error.code !== undefined) {
      const extra: Record<string, unknown> = { code: error.code };
      if (error.data !== undefined) extra.data = error.data;
      return { record: record("rpc_error", extra), fatal: false };
    }
    const again = context.seen.has(error);
    context.seen.add(error);
    return { record: record("protocol"), fatal: again };
  }
  throw error;
}

/** The error record of a line read after the server went away. */
export function notCalledRecord(input: number, subject: Subject, cause: unknown): PutErrorRecord {
  const why = cause instanceof Error ? cause.message : String(cause);
  return errorRecord(input, subject, { kind: "not_called", error: `Not called: ${why}` });
}

/** The error record of a line read after the circuit breaker tripped (`--max-timeouts`). */
export function notAttemptedRecord(
  input: number,
  subject: Subject,
  timeouts: number,
): PutErrorRecord {
  return errorRecord(input, subject, {
    kind: "not_attempted",
    error: `Not attempted: ${timeouts} calls in a row timed out (--max-timeouts ${timeouts})`,
  });
}

/**
 * Serialises a call's records with `input` added, one NDJSON line each.
 * Hot path: `input` is spliced into each record's JSON text after `type`
 * instead of building a new object per record.
 */
export function numberedLines(records: readonly unknown[], input: number): string {
  let text = "";
  for (const record of records) text += numberedLine(record, input) + "\n";
  return text;
}

function numberedLine(record: unknown, input: number): string {
  if (
    typeof record === "object" && record !== null && !Array.isArray(record) &&
    !Object.hasOwn(record, "input")
  ) {
    const type = (record as { type?: unknown }).type;
    const json = JSON.stringify(record);
    if (typeof type === "string") {
      const head = `{"type":${JSON.stringify(type)}`;
      if (json.startsWith(head)) {
        return json.length === head.length + 1
          ? `${head},"input":${input}}`
          : `${head},"input":${input}${json.slice(head.length)}`;
      }
    }
    return json === "{}" ? `{"input":${input}}` : `{"input":${input},${json.slice(1)}`;
  }
  return JSON.stringify({ input, value: record });
}
