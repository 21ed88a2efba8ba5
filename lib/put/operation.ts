/**
 * Reads one NDJSON input line of `put` to an operations target (`jn put
 * @server`, no tool): the record names the operation to run, with the keys a
 * source's query uses (lib/uri/query_keys.ts, read by the same functions):
 *
 *   {"tool": "NAME", "arguments": {…}}     call a tool (`arguments` optional)
 *   {"resource": "URI"}                    read a resource
 *   {"prompt": "NAME", "arguments": {…}}   get a prompt (`arguments` optional)
 *   {"list": "tools"}                      list tools, resources, templates or prompts
 *
 * Guarantees: a line that is not a JSON object, names no operation or two,
 * gives an operation's value as anything but a valid string, gives
 * `arguments` that are not an object (or to a resource or list, which take
 * none), or has any other field is an error record (`invalid_json`,
 * `not_object` or `invalid_operation`) naming the closest valid field when
 * there is one; keys starting with `_` are the record's own bookkeeping and
 * are ignored. `arguments` are returned as written (their values typed JSON).
 * Pure, no I/O.
 *
 * @module
 */

import type { NdjsonLine } from "../ndjson/read.ts";
import { closest } from "../text/suggest.ts";
import { type OperationKey, QUERY_KEYS } from "../uri/query_keys.ts";
import type { ListKind } from "../uri/source.ts";
import { describeValue as describe, parseRecord } from "./arguments.ts";
import { errorRecord, type PutErrorRecord, type Subject } from "./records.ts";

/** The operation one record names. */
export type PutOperation =
  | { kind: "tool"; name: string; arguments: Record<string, unknown> }
  | { kind: "resource"; uri: string }
  | { kind: "prompt"; name: string; arguments: Record<string, unknown> }
  | { kind: "list"; what: ListKind };

/** What a line became: its operation (and what error records about it name), or an error record. */
export type ReadOperation =
  | {
    kind: "operation";
    operation: PutOperation;
    subject: Subject;
    /** The line's record, as written. */
    record: Record<string, unknown>;
  }
  | { kind: "error"; record: PutErrorRecord };

/** The query's operation keys a record may use: every one but `task=` (a result to wait for). */
const KEYS = QUERY_KEYS.filter((key): key is OperationKey =>
  key.kind === "operation" && key.name !== "task"
);
const NAMES = KEYS.map((key) => key.name);
/** The field of the operations that take arguments. */
const ARGUMENTS = "arguments";

/** Thrown by the value reader's `fail`, caught below. */
class BadValue {
  constructor(readonly detail: string, readonly hint?: string) {}
}

/**
 * The operation of one line.
 *
 * @example
 * ```ts
 * readOperation({ number: 2, text: '{"tool":"set","arguments":{"key":"a"},"_row":7}' });
 * // { kind: "operation", operation: { kind: "tool", name: "set", arguments: { key: "a" } },
 * //   subject: { tool: "set" }, record: {…} }
 * ```
 */
export function readOperation(line: NdjsonLine): ReadOperation {
  const parsed = parseRecord(line, {});
  if (parsed.kind === "error") return parsed;
  const record = parsed.record;
  const invalid = (subject: Subject, error: string, hint?: string): ReadOperation => ({
    kind: "error",
    record: errorRecord(
      line.number,
      subject,
      { kind: "invalid_operation", error },
      hint === undefined ? {} : { hint },
    ),
  });
  const fields = Object.keys(record).filter((field) => field.charCodeAt(0) !== 95 /* _ */);
  const named = KEYS.filter((key) => fields.includes(key.name));
  if (named.length === 0) {
    const near = fields.map((field) => [field, closest(field, NAMES)] as const)
      .find(([, name]) => name !== undefined);
    return invalid(
      {},
      `No operation: the record names none of ${quoted(NAMES, "or")}`,
      near !== undefined
        ? `"${near[0]}" is not one: did you mean "${near[1]}"?`
        : `e.g. {"tool": "NAME", "arguments": {…}} or {"resource": "URI"}`,
    );
  }
  if (named.length > 1) {
    return invalid(
      {},
      `Two operations: the record names ${quoted(named.map((key) => key.name), "and")}`,
      "give one operation per record, one record per line",
    );
  }
  const key = named[0];
  const value = record[key.name];
  if (typeof value !== "string") {
    return invalid({}, `"${key.name}" must be a string, got ${describe(value)}`);
  }
  const subject = { [key.name]: value } as Subject;
  const takesArguments = key.name === "tool" || key.name === "prompt";
  for (const field of fields) {
    if (field === key.name || (field === ARGUMENTS && takesArguments)) continue;
    if (field === ARGUMENTS) return invalid(subject, `A ${key.name} takes no "${ARGUMENTS}"`);
    // An object beside a tool or prompt is its arguments under another name (`args`, `params`).
    const near = takesArguments && isObject(record[field])
      ? ARGUMENTS
      : closest(field, takesArguments ? [ARGUMENTS, ...NAMES] : NAMES);
    return invalid(
      subject,
      `Unknown field "${field}" beside "${key.name}"`,
      near !== undefined
        ? `did you mean "${near}"?`
        : `a record names one operation${
          takesArguments ? ` and its "${ARGUMENTS}"` : ""
        }; fields starting with _ are ignored`,
    );
  }
  const args = Object.hasOwn(record, ARGUMENTS) ? record[ARGUMENTS] : {};
  if (!isObject(args)) {
    return invalid(subject, `"${ARGUMENTS}" must be an object, got ${describe(args)}`);
  }
  try {
    const read = key.read(value, {
      start: 0,
      note: `in a record: {"${key.name}": "…"}`,
      fail: (_index, detail, hint) => {
        throw new BadValue(detail, hint);
      },
    });
    const operation: PutOperation | undefined = read.kind === "tool" || read.kind === "prompt"
      ? { ...read, arguments: args as Record<string, unknown> }
      : read.kind === "resource" || read.kind === "list"
      ? read
      : undefined;
    if (operation === undefined) throw new TypeError(`put runs no ${read.kind} operation`);
    return { kind: "operation", operation, subject, record };
  } catch (error) {
    if (!(error instanceof BadValue)) throw error;
    return invalid(subject, `Invalid operation: ${error.detail}`, error.hint);
  }
}

/** What an error record names before its line is read: the line's valid operation, if any. */
export function lineSubject(line: NdjsonLine): Subject {
  const read = readOperation(line);
  return read.kind === "operation" ? read.subject : {};
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function quoted(names: readonly string[], last: "or" | "and"): string {
  const words = names.map((name) => `"${name}"`);
  return words.length < 2
    ? words.join("")
    : `${words.slice(0, -1).join(", ")} ${last} ${words[words.length - 1]}`;
}
