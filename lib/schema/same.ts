/**
 * Whether two schemas mean the same to a caller: each is normalised (local
 * `$ref`s inlined — pointers, anchors, embedded `$id`s: ref.ts — a cycle
 * left as written; type lists sorted, `["t"]` read as `"t"`; `enum` and
 * `required` lists read as sets, in no order) and the results compared as
 * canonical JSON (key order ignored). Every other keyword counts, the
 * descriptions of parameters and fields included, and so does every entry
 * of `$defs`/`definitions` that no `$ref` inlined (a host hands the model
 * the whole schema: text in a definition nothing uses is read too); an
 * inlined one is compared where it is used, so moving a parameter behind a
 * `$ref` changes nothing. What differs here is something a caller (or a
 * model reading the schema) may see.
 *
 * The schema diffs use it for the change no classified row names (an
 * `input_schema_changed`, an `output_schema_changed`), and pinning
 * (lib/drift/pin.ts) for "unchanged since the snapshot".
 *
 * @module
 */

import { followRefs, isObject } from "./ref.ts";
import { canonical } from "./schema_view.ts";

/**
 * Whether `a` and `b` normalise to the same schema (`undefined` only equals
 * `undefined`).
 *
 * @example
 * sameSchema({ type: ["null", "string"] }, { type: ["string", "null"] }); // true
 * sameSchema({ type: "string", description: "a" }, { type: "string" }); // false
 */
export function sameSchema(a: unknown, b: unknown): boolean {
  if (a === undefined || b === undefined) return a === b;
  const [x, y] = comparable(a, b);
  return canonical(x) === canonical(y);
}

/**
 * The most nodes normalising one schema may produce: `$ref`s that fan out
 * (a definition used twice by one used twice, …) grow a schema
 * exponentially once inlined, and a hostile server must not stall jn.
 */
const MAX_NODES = 50_000;

class TooLarge extends Error {}

/** Both schemas normalised, or both as written when either is too large to normalise (stricter). */
function comparable(a: unknown, b: unknown): [unknown, unknown] {
  try {
    return [normalized(a), normalized(b)];
  } catch (error) {
    if (error instanceof TooLarge) return [a, b];
    throw error;
  }
}

/**
 * A schema as a caller sees it (see the module's doc). Throws when inlining
 * would make it larger than {@linkcode MAX_NODES} nodes (callers compare the
 * schemas as written then).
 */
function normalized(schema: unknown): unknown {
  // The definitions some `$ref` inlined (the very objects of the document).
  const inlined = new Set<unknown>();
  let nodes = 0;
  const walk = (node: unknown, chain: readonly string[], depth: number): unknown => {
    if (++nodes > MAX_NODES) throw new TooLarge();
    if (Array.isArray(node)) return node.map((item) => walk(item, chain, depth + 1));
    if (!isObject(node) || depth > 64) return node;
    const followed = followRefs(node, schema, chain);
    for (const target of followed.targets) inlined.add(target);
    const source = followed.cyclic ? node : followed.schema;
    const out: Record<string, unknown> = {};
    const definitions: [string, unknown][] = [];
    for (const [key, value] of Object.entries(source)) {
      if (key === "$defs" || key === "definitions") {
        definitions.push([key, value]);
        continue;
      }
      out[key] = key === "type"
        ? typeSet(value)
        : (key === "enum" || key === "required") && Array.isArray(value)
        ? [...value].sort((x, y) => canonical(x) < canonical(y) ? -1 : 1)
        : followed.cyclic
        ? value
        : walk(value, followed.chain, depth + 1);
    }
    // Last, once the rest of this schema has inlined what it uses: the definitions left are kept.
    for (const [key, value] of definitions) {
      if (!isObject(value) || followed.cyclic) {
        out[key] = value; // malformed, or inside a cycle: compared as written
        continue;
      }
      const kept: Record<string, unknown> = {};
      for (const [name, definition] of Object.entries(value)) {
        if (!inlined.has(definition)) kept[name] = walk(definition, followed.chain, depth + 2);
      }
      if (Object.keys(kept).length > 0) out[key] = kept;
    }
    return out;
  };
  return walk(schema, [], 0);
}

/** `"t"` and `["t"]` alike; a list sorted and unique. */
function typeSet(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  const types = [...new Set(value.map((t) => (typeof t === "string" ? t : canonical(t))))].sort();
  return types.length === 1 ? types[0] : types;
}

/** One place where two schemas differ (see {@linkcode schemaDifferences}). */
export interface SchemaDifference {
  /** Dotted, `[i]` for array items: `properties.gene.description`, `$defs.note`. */
  path: string;
  /** The value in the first schema (absent: it has none there). */
  old?: unknown;
  /** The value in the second (absent: it has none there). */
  new?: unknown;
}

/**
 * Where two schemas differ once normalised (as {@linkcode sameSchema}
 * compares them), deepest first-differing places in key order, at most
 * `limit` of them: what a reader needs to see of a change no classified row
 * names (a `pattern`, text in an unused definition).
 *
 * @example
 * schemaDifferences({ type: "string" }, { type: "string", $defs: { n: { description: "x" } } });
 * // [{ path: "$defs", new: { n: { description: "x" } } }]
 */
export function schemaDifferences(a: unknown, b: unknown, limit = 5): SchemaDifference[] {
  const out: SchemaDifference[] = [];
  const walk = (x: unknown, y: unknown, path: string) => {
    if (out.length >= limit || canonical(x) === canonical(y)) return;
    const at = (key: string | number) =>
      typeof key === "number" ? `${path}[${key}]` : path === "" ? key : `${path}.${key}`;
    if (isObject(x) && isObject(y)) {
      const keys = [...new Set([...Object.keys(x), ...Object.keys(y)])].sort();
      for (const key of keys) walk(x[key], y[key], at(key));
      return;
    }
    if (Array.isArray(x) && Array.isArray(y) && x.length === y.length) {
      x.forEach((item, i) => walk(item, y[i], at(i)));
      return;
    }
    out.push({
      path: path === "" ? "(the schema)" : path,
      ...(x === undefined ? {} : { old: x }),
      ...(y === undefined ? {} : { new: y }),
    });
  };
  const [x, y] = comparable(a, b);
  walk(x, y, "");
  return out;
}
