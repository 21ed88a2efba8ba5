/**
 * The schema hash of SPEC §5, byte-compatible with the seed's
 * `calculate_schema_hash`: for tools sorted by name, the signature
 * `{"name", "required" (sorted), "types" {param: type}}` serialised as Python's
 * `json.dumps(sig, sort_keys=True)`, joined by `\n`, MD5 hex.
 *
 * SPEC relaxes the seed where it would crash: a property without `type` (or a
 * property schema that is not an object, such as `true`) contributes `null`, a
 * schema without `properties` contributes `{}`, one without `required`
 * contributes `[]`. `type` values are kept as they are (a list stays a list, in
 * its order). A malformed `required` is sorted as Python sorts it (a string
 * into its characters, an object into its keys), and where Python would
 * raise, relaxed ({@linkcode sortedRequired}).
 *
 * Numbers: the serialiser cannot see how a number was spelled (python_json.ts
 * lists the exact cases where Python's bytes differ).
 *
 * @module
 */

import { createHash } from "node:crypto";
import type { ToolInfo } from "../types.ts";
import { comparePython, pythonJsonDumps } from "./python_json.ts";

/** The part of a tool the hash reads; `inputSchema` may be missing or malformed. */
export type HashableTool = Pick<ToolInfo, "name"> & { inputSchema?: unknown };

/** The signature object of one tool, before serialisation. */
export interface ToolSignature {
  name: string;
  required: unknown[];
  types: Record<string, unknown>;
}

/** Builds the signature the seed hashes for one tool. */
export function toolSignature(tool: HashableTool): ToolSignature {
  const schema = isObject(tool.inputSchema) ? tool.inputSchema : {};
  const properties = isObject(schema.properties) ? schema.properties : {};
  // Null prototype: a parameter named `__proto__` must stay a plain key.
  const types: Record<string, unknown> = Object.create(null);
  for (const [param, prop] of Object.entries(properties)) {
    types[param] = isObject(prop) && prop.type !== undefined ? prop.type : null;
  }
  return { name: tool.name, required: sortedRequired(schema.required), types };
}

/**
 * `sorted(schema.get("required", []))` as Python computes it, for any JSON
 * value: an array sorted as Python sorts it (strings by code point, numbers
 * and booleans by value, arrays element by element; stable), a string as
 * its characters, an object as its keys. Where Python would raise (mixed
 * strings and numbers, `null`, objects in the array, a number or `null`
 * instead of an array), SPEC relaxes: the strings sorted, then the other
 * entries in their order; a value that is not an array, a string or an
 * object counts as `[]`.
 */
export function sortedRequired(required: unknown): unknown[] {
  if (required === undefined) return [];
  if (typeof required === "string") return [...required].sort(comparePython);
  if (isObject(required)) return Object.keys(required).sort(comparePython);
  if (!Array.isArray(required)) return [];
  try {
    return [...required].sort(comparePythonValues);
  } catch {
    const names = required.filter((r): r is string => typeof r === "string").sort(comparePython);
    return [...names, ...required.filter((r) => typeof r !== "string")];
  }
}

/** Python's `<` between two JSON values; throws where Python raises `TypeError`. */
function comparePythonValues(a: unknown, b: unknown): number {
  if (typeof a === "string" && typeof b === "string") return comparePython(a, b);
  const numeric = (v: unknown) => typeof v === "number" || typeof v === "boolean";
  if (numeric(a) && numeric(b)) {
    const x = Number(a);
    const y = Number(b);
    return x < y ? -1 : x > y ? 1 : 0;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      // Python compares lists by the first unequal pair (== first, then <).
      if (pythonEquals(a[i], b[i])) continue;
      return comparePythonValues(a[i], b[i]);
    }
    return a.length - b.length;
  }
  throw new TypeError("not orderable in Python");
}

function pythonEquals(a: unknown, b: unknown): boolean {
  const numeric = (v: unknown) => typeof v === "number" || typeof v === "boolean";
  if (numeric(a) && numeric(b)) return Number(a) === Number(b);
  return pythonJsonDumps(a) === pythonJsonDumps(b);
}

/**
 * One line of the hash input: the tool's signature as Python's
 * `json.dumps(sig, sort_keys=True)` writes it (ASCII only).
 *
 * @example toolSignatureLine({ name: "t", inputSchema: { type: "object" } })
 *   // '{"name": "t", "required": [], "types": {}}'
 */
export function toolSignatureLine(tool: HashableTool): string {
  return pythonJsonDumps(toolSignature(tool));
}

/** Tools in the order the seed hashes them: by name, code point order, stable. */
export function sortToolsForHash<T extends HashableTool>(tools: readonly T[]): T[] {
  return [...tools].sort((a, b) => comparePython(a.name, b.name));
}

/**
 * The schema hash of a server's tool list (MD5 hex of the signature lines
 * joined by `\n`). An empty list hashes the empty string.
 */
export function schemaHash(tools: readonly HashableTool[]): string {
  return md5Hex(sortToolsForHash(tools).map(toolSignatureLine).join("\n"));
}

/**
 * The MD5 hex of each tool's signature line, keyed by tool name (for
 * `jn mcp hash --format json`). With duplicate names the last one in hash
 * order wins.
 */
export function toolHashes(tools: readonly HashableTool[]): Record<string, string> {
  const out: Record<string, string> = Object.create(null);
  for (const tool of sortToolsForHash(tools)) out[tool.name] = md5Hex(toolSignatureLine(tool));
  return out;
}

/**
 * The fingerprint of a tool description that a snapshot records
 * (`server_description_md5`): MD5 hex of its UTF-8 bytes. It tells the
 * server's text from the user's edit of it later, without a second copy.
 *
 * @example descriptionMd5("") // "d41d8cd98f00b204e9800998ecf8427e"
 */
export function descriptionMd5(text: string): string {
  return md5Hex(text);
}

function md5Hex(text: string): string {
  return createHash("md5").update(text, "utf8").digest("hex");
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
