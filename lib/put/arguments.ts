/**
 * Turns one NDJSON input line of `put` into the arguments of one tool call,
 * or into the error record that says why it cannot be called.
 *
 * Rules (SPEC §3): the line must be one JSON object; its keys starting with
 * `_` are not sent; its fields win over the defaults (the target's URI and
 * flag arguments, already converted by the tool's schema); the merged object
 * is validated strictly against the tool's `inputSchema`, and a field the
 * schema does not declare is a violation naming the closest declared one
 * (lib/args/declared.ts) unless `allowUnknown`. A record's values
 * are typed JSON and are never converted: `"5"` for an integer property is
 * a violation, not `5` (records are data, not command-line text).
 * The schema's validator is compiled once, on the first line. Pure, no I/O.
 *
 * @module
 */

import type { ArgumentViolation } from "../errors.ts";
import type { JsonSchema } from "../types.ts";
import type { SchemaEngine } from "../args/validate.ts";
import { checkedViolations } from "../args/check.ts";
import {
  type DeclaredArguments,
  declaredArguments,
  isDeclared,
  undeclaredArguments,
} from "../args/declared.ts";
import type { NdjsonLine } from "../ndjson/read.ts";
import {
  badLineRecord,
  invalidArgumentsRecord,
  type PutErrorRecord,
  type Subject,
} from "./records.ts";

/** What a line became. */
export type PreparedLine =
  | { kind: "call"; args: Record<string, unknown> }
  | { kind: "error"; record: PutErrorRecord };

/** Options of {@linkcode argumentBuilder}. */
export interface ArgumentBuilderOptions {
  /** The tool's `inputSchema`. */
  schema: JsonSchema;
  /** Arguments every call starts from (URI query, `--arg`, `--args`, profile defaults). */
  defaults: Record<string, unknown>;
  /** The JSON Schema engine that validates each call's arguments. */
  engine: SchemaEngine;
  /** Send fields the schema does not declare (`--allow-unknown`); by default each is a violation. */
  allowUnknown?: boolean;
}

/**
 * Returns the function that prepares each line for `tool`.
 *
 * @example
 * ```ts
 * const prepare = argumentBuilder("search", { schema, defaults: { limit: 2 }, engine });
 * prepare({ number: 1, text: '{"gene":"BRAF","_id":7}' });
 * // { kind: "call", args: { limit: 2, gene: "BRAF" } }
 * ```
 */
export function argumentBuilder(
  tool: string,
  options: ArgumentBuilderOptions,
): (line: NdjsonLine) => PreparedLine {
  const check = argumentChecker(tool, options);
  return (line) => {
    const parsed = parseRecord(line, { tool });
    if (parsed.kind === "error") return parsed;
    return check(mergeRecord(options.defaults, parsed.record), line.number, parsed.record);
  };
}

/**
 * Returns the function that validates one call's arguments for `tool`
 * (already merged with the defaults): the arguments to send, or the
 * `invalid_arguments` error record of line `input` (`record` is what the
 * line gave, kept in it).
 */
export function argumentChecker(
  tool: string,
  options: Omit<ArgumentBuilderOptions, "defaults">,
): (args: Record<string, unknown>, input: number, record: unknown) => PreparedLine {
  const { schema, engine } = options;
  const declared = declaredArguments(schema);
  const allowUnknown = options.allowUnknown === true;
  return (args, input, record) => {
    // The common case first, without building any list: every name declared
    // and the schema satisfied. Only a record that fails it is checked again
    // in full, for the violations and their order.
    if (
      (allowUnknown || allDeclared(args, declared)) &&
      engine.findViolations(args, schema).length === 0
    ) {
      return { kind: "call", args };
    }
    const violations: ArgumentViolation[] = checkedViolations(args, options, {
      unknown: undeclaredArguments(Object.keys(args), declared),
    });
    if (violations.length > 0) {
      return {
        kind: "error",
        record: invalidArgumentsRecord(input, tool, { violations, record }),
      };
    }
    return { kind: "call", args };
  };
}

/** A line as a JSON object, or the error record (about `subject`) of one that is not. */
export function parseRecord(
  line: NdjsonLine,
  subject: Subject,
): { kind: "record"; record: Record<string, unknown> } | { kind: "error"; record: PutErrorRecord } {
  let record: unknown;
  try {
    record = JSON.parse(line.text);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return bad(line, subject, "invalid_json", `Not JSON: ${detail}`);
  }
  if (typeof record !== "object" || record === null || Array.isArray(record)) {
    return bad(line, subject, "not_object", `Not a JSON object: got ${describeValue(record)}`);
  }
  return { kind: "record", record: record as Record<string, unknown> };
}

/** The defaults overlaid with the record's fields, leaving out `_` keys. */
export function mergeRecord(
  defaults: Record<string, unknown>,
  record: Record<string, unknown>,
): Record<string, unknown> {
  const args: Record<string, unknown> = { ...defaults };
  // "__proto__" starts with "_" too, so plain assignment cannot touch a prototype.
  for (const key of Object.keys(record)) {
    if (key.charCodeAt(0) !== 95 /* _ */) args[key] = record[key];
  }
  return args;
}

/** Whether the schema declares every name of `args`. */
function allDeclared(args: Record<string, unknown>, declared: DeclaredArguments): boolean {
  for (const name in args) if (!isDeclared(declared, name)) return false;
  return true;
}

function bad(
  line: NdjsonLine,
  subject: Subject,
  kind: "invalid_json" | "not_object",
  message: string,
): { kind: "error"; record: PutErrorRecord } {
  return {
    kind: "error",
    record: badLineRecord(line.number, subject, { kind, message, line: line.text }),
  };
}

/** What a JSON value is, for a message: "null", "an array", "a string"… */
export function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return `a ${typeof value}`;
}
