/**
 * Whether two schemas mean the same to a caller: each is normalised (local
 * `$ref`s inlined, a cycle left as written; `$defs`/`definitions` dropped;
 * type lists sorted, `["t"]` read as `"t"`; `enum` and `required` lists
 * read as sets, in no order) and the results compared as
 * canonical JSON (key order ignored). Every other keyword counts, the
 * descriptions of parameters and fields included: what differs here is
 * something a caller (or a model reading the schema) may see.
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
  return canonical(normalized(a)) === canonical(normalized(b));
}

/** A schema as a caller sees it (see the module's doc). */
export function normalized(schema: unknown): unknown {
  const walk = (node: unknown, chain: readonly string[], depth: number): unknown => {
    if (Array.isArray(node)) return node.map((item) => walk(item, chain, depth + 1));
    if (!isObject(node) || depth > 64) return node;
    const followed = followRefs(node, schema, chain);
    const source = followed.cyclic ? node : followed.schema;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(source)) {
      if (key === "$defs" || key === "definitions") continue;
      out[key] = key === "type"
        ? typeSet(value)
        : (key === "enum" || key === "required") && Array.isArray(value)
        ? [...value].sort((x, y) => canonical(x) < canonical(y) ? -1 : 1)
        : followed.cyclic
        ? value
        : walk(value, followed.chain, depth + 1);
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
