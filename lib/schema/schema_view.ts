/**
 * How the schema diff reads one JSON Schema node: local `$ref`s resolved
 * (cycles stop the descent instead of looping), nullable unions such as
 * pydantic's `anyOf: [{…}, {"type": "null"}]` looked through, types reduced to
 * a sorted set. Also turns the seed's `parameters` map into a JSON Schema.
 * Accepts any JSON value: malformed schemas read as "accepts anything".
 *
 * @module
 */

import type { JsonSchema } from "../types.ts";
import { pythonJsonDumps } from "./python_json.ts";
import { type Followed, followRefs, isObject } from "./ref.ts";

/** One schema node as the diff compares it. */
export interface NodeView {
  /** Accepted JSON types, sorted and unique; `undefined` when any value is accepted. */
  type: string[] | undefined;
  /** Allowed values (`enum`, or `[const]`); `undefined` when unrestricted. */
  enum: unknown[] | undefined;
  description: string | undefined;
  /** Object properties, when the node declares them (null-prototype safe: use {@link own}). */
  properties: Record<string, unknown> | undefined;
  required: string[];
  /** `items` (a schema, or a tuple of schemas; `prefixItems` when there is no `items` schema). */
  items: unknown;
  /** The `$ref`s followed from the document root down to here. */
  chain: readonly string[];
  /** A `$ref` on the way here points back up the chain: do not descend further. */
  cyclic: boolean;
}

const MAX_HOPS = 32;

/**
 * The most nodes one tool's schema comparison visits: `$ref`s that fan out
 * (a definition used twice by one used twice, …) make a small schema an
 * exponential tree, and a hostile server must not stall jn. Past it the
 * comparison stops descending; the schemas' equality is still checked
 * (same.ts), so a difference is still reported.
 */
export const MAX_COMPARED_NODES = 20_000;

/** Reads `node` (a property schema of the document `root`) reached through `chain`. */
export function viewNode(node: unknown, root: unknown, chain: readonly string[]): NodeView {
  const outer = followRefs(node, root, chain);
  const branch = nullableBranch(outer.schema, root, outer.chain);
  const shape = branch ?? outer;
  const s = shape.schema;
  const items = isObject(s.items) || Array.isArray(s.items)
    ? s.items
    : Array.isArray(s.prefixItems)
    ? s.prefixItems
    : undefined;
  return {
    type: effectiveType(outer.schema, root, outer.chain, 0),
    enum: Array.isArray(s.enum) ? s.enum : "const" in s ? [s.const] : undefined,
    description: stringOr(outer.schema.description) ?? stringOr(s.description),
    properties: isObject(s.properties) ? s.properties : undefined,
    required: Array.isArray(s.required) ? s.required.filter((r) => typeof r === "string") : [],
    items,
    chain: shape.chain,
    cyclic: outer.cyclic || (branch?.cyclic ?? false),
  };
}

/**
 * Where a schema's `required` is not an array of strings, as paths
 * (`""` for the root, `filters` for a nested object, `rows[]` for array
 * items): the diff reads only the strings of such a `required` (none when it
 * is not an array), which the caller should say in a warning.
 *
 * @example malformedRequired({ type: "object", required: "gene" }) // [""]
 */
export function malformedRequired(schema: unknown): string[] {
  const out: string[] = [];
  const walk = (node: unknown, path: string, depth: number) => {
    if (!isObject(node) || depth > 32) return;
    const required = node.required;
    if (
      required !== undefined &&
      !(Array.isArray(required) && required.every((r) => typeof r === "string"))
    ) out.push(path);
    if (isObject(node.properties)) {
      for (const [name, child] of Object.entries(node.properties)) {
        walk(child, path === "" ? name : `${path}.${name}`, depth + 1);
      }
    }
    if (isObject(node.items)) walk(node.items, `${path}[]`, depth + 1);
  };
  walk(schema, "", 0);
  return out;
}

/** Turns the seed's `parameters` form (`{gene: {type, required: true}}`) into an object schema. */
export function schemaFromParameters(parameters: Record<string, unknown>): JsonSchema {
  const properties: Record<string, JsonSchema> = Object.create(null);
  const required: string[] = [];
  for (const [name, param] of Object.entries(parameters)) {
    if (!isObject(param)) {
      properties[name] = {};
      continue;
    }
    const { required: isRequired, ...rest } = param;
    properties[name] = rest;
    if (isRequired === true) required.push(name);
  }
  return { type: "object", properties, required };
}

/** A label for a type set, for messages and rename matching: `string`, `string|null`, `any`. */
export function typeLabel(type: string[] | undefined): string {
  return type === undefined ? "any" : type.join("|");
}

/** A type set as reported in a change: one type as a string, several as a list, none as null. */
export function typeValue(type: string[] | undefined): string | string[] | null {
  if (type === undefined) return null;
  return type.length === 1 ? type[0] : type;
}

/** A value's identity for set comparisons (key order does not matter). */
export function canonical(value: unknown): string {
  return pythonJsonDumps(value);
}

/** The values `now` allows that `old` did not (`gained`) and the reverse (`lost`), by canonical JSON. */
export function enumChange(
  old: readonly unknown[],
  now: readonly unknown[],
): { gained: unknown[]; lost: unknown[] } {
  const oldKeys = new Set(old.map(canonical));
  const newKeys = new Set(now.map(canonical));
  return {
    gained: now.filter((v) => !oldKeys.has(canonical(v))),
    lost: old.filter((v) => !newKeys.has(canonical(v))),
  };
}

/** The own property `key` of `record`, never an inherited one (`constructor`, `__proto__`). */
export function own(record: Record<string, unknown> | undefined, key: string): unknown {
  return record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;
}

/** The one non-null branch of an `anyOf`/`oneOf`, when the node has no structure of its own. */
function nullableBranch(
  schema: Record<string, unknown>,
  root: unknown,
  chain: readonly string[],
): Followed | undefined {
  if ("properties" in schema || "items" in schema || "enum" in schema || "const" in schema) {
    return undefined;
  }
  const branches = unionBranches(schema);
  if (branches === undefined) return undefined;
  const resolved = branches.map((b) => followRefs(b, root, chain));
  const nonNull = resolved.filter((r) => !(r.schema.type === "null" && !("enum" in r.schema)));
  return nonNull.length === 1 ? nonNull[0] : undefined;
}

function effectiveType(
  schema: Record<string, unknown>,
  root: unknown,
  chain: readonly string[],
  depth: number,
): string[] | undefined {
  const type = schema.type;
  if (type !== undefined) {
    const list = Array.isArray(type) ? type : [type];
    return [...new Set(list.map((t) => (typeof t === "string" ? t : canonical(t))))].sort();
  }
  const branches = unionBranches(schema);
  if (branches === undefined || depth >= MAX_HOPS) return undefined;
  const union = new Set<string>();
  for (const branch of branches) {
    const r = followRefs(branch, root, chain);
    const t = r.cyclic ? undefined : effectiveType(r.schema, root, r.chain, depth + 1);
    if (t === undefined) return undefined;
    t.forEach((x) => union.add(x));
  }
  return [...union].sort();
}

function unionBranches(schema: Record<string, unknown>): unknown[] | undefined {
  const branches = schema.anyOf ?? schema.oneOf;
  return Array.isArray(branches) && branches.length > 0 ? branches : undefined;
}

function stringOr(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}
