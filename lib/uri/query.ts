/**
 * Parses the QUERY of a naked URI or a profile reference into the operation,
 * the server's extra argv words (`command=`) and the tool or prompt arguments,
 * by the table of query keys (query_keys.ts).
 *
 * Rules (documented in README): `&`-separated `key=value` pairs; empty pairs
 * (`a=1&&b=2`, a trailing `&`) are skipped; a pair without `=` is an error
 * (write `flag=true`, or `flag=` for an empty string); keys and values are
 * strictly percent-decoded and `+` is a literal plus. Keys are
 * case-sensitive. At most one key that selects an operation, none of them
 * twice, except that `task=` may name the `tool=` it runs; a key that
 * refines an operation (`session=` beside `task=`) is read only beside it.
 * Every other key is an argument, in order, repeats kept.
 *
 * @module
 */

import type { Operation, RawArg } from "./source.ts";
import { type Fail, percentDecode } from "./percent.ts";
import { QUERY_KEYS, queryKey } from "./query_keys.ts";
import { argFlagNote } from "./reserved.ts";

/** What a query string asks for. */
export interface ParsedQuery {
  operation: Operation;
  /** Values of `command=`, in order. */
  command: string[];
  args: RawArg[];
}

/** How to parse a query, and where it sits in the input. */
export interface QueryOptions {
  /** Offset of the query's first character (after `?`) in the input. */
  start: number;
  fail: Fail;
  /** A naked URI (keys for naked URIs only, `command=`, are allowed) or a profile reference. */
  naked: boolean;
  /** A tool already named by the path of a profile reference (`@server/tool`). */
  pathTool?: string;
}

/** Parses `query` (the text after `?`). */
export function parseQuery(query: string, options: QueryOptions): ParsedQuery {
  const fail: Fail = options.fail;
  let operation: Operation = options.pathTool === undefined
    ? { kind: "none" }
    : { kind: "tool", name: options.pathTool };
  let operationKey: string | undefined;
  const seen = new Set<string>();
  const command: string[] = [];
  const args: RawArg[] = [];

  let pairStart = options.start;
  for (const pair of query.split("&")) {
    const start = pairStart;
    pairStart += pair.length + 1;
    if (pair === "") continue;
    const eq = pair.indexOf("=");
    if (eq === -1) {
      fail(
        start,
        `"${pair}" has no value`,
        `write ${pair}=VALUE (or ${pair}= for an empty string)`,
      );
    }
    if (eq === 0) fail(start, `an argument name is empty before "="`);
    const key = percentDecode(pair.slice(0, eq), { start, fail });
    const valueStart = start + eq + 1;
    const value = percentDecode(pair.slice(eq + 1), { start: valueStart, fail });
    const spec = queryKey(key);

    if (spec === undefined || spec.kind === "refines") {
      args.push({ key, value });
      continue;
    }
    if (spec.kind === "argv" && !options.naked) {
      fail(start, `"${key}=" is not allowed in a profile reference`, spec.nakedOnly);
    }
    if (key === "tool" && options.pathTool !== undefined) {
      fail(
        start,
        `the tool is named twice: "${options.pathTool}" in the path and "tool=" in the query`,
        `name the tool once: @server/tool or @server?tool=tool (${argFlagNote("tool")})`,
      );
    }
    if (!spec.repeatable && seen.has(key)) {
      fail(start, `"${key}=" is given twice`, argFlagNote(key));
    }
    seen.add(key);
    if (spec.kind === "argv") {
      if (value.includes("\0")) fail(valueStart, `${key} argument contains a NUL character`);
      command.push(value);
      continue;
    }
    const next = spec.read(value, { start: valueStart, fail, note: argFlagNote(key) });
    // A task may name the tool it runs: `?tool=NAME&task=ID`, `@server/tool?task=ID`.
    const named = taskOfTool(operation, next);
    if (named) {
      operation = named;
      continue;
    }
    if (operation.kind !== "none") {
      const first = operationKey === undefined
        ? `the tool "${options.pathTool}" in the path`
        : `"${operationKey}="`;
      fail(
        start,
        `"${key}=" conflicts with ${first}`,
        `give at most one of ${operationKeys()} (${argFlagNote(key)})`,
      );
    }
    operation = next;
    operationKey = key;
  }
  // A key that refines the operation (session= beside task=) is jn's, not an argument.
  for (const spec of QUERY_KEYS) {
    if (spec.kind !== "refines" || operation.kind !== spec.refines) continue;
    const index = args.findIndex((arg) => arg.key === spec.name);
    if (index === -1 || args[index].value === "") continue;
    operation = spec.apply(operation, args[index].value);
    args.splice(index, 1);
  }
  return { operation, command, args };
}

/** The keys that select an operation, for messages: `tool, resource, prompt, list and task`. */
function operationKeys(): string {
  const names = QUERY_KEYS.filter((key) => key.kind === "operation").map((key) => key.name);
  return `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}

/** A task and the tool it runs, when `first` and `next` are those two; else undefined. */
function taskOfTool(first: Operation, next: Operation): Operation | undefined {
  if (first.kind === "tool" && next.kind === "task") return { ...next, tool: first.name };
  if (first.kind === "task" && first.tool === undefined && next.kind === "tool") {
    return { ...first, tool: next.name };
  }
  return undefined;
}
