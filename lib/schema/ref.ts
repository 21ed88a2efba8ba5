/**
 * jn's one `$ref` resolver, for everything that reads a JSON Schema: the
 * schema diff (schema_view.ts) and argument coercion (lib/args). Only local
 * references are followed (`#`, `#/$defs/X`, `#/definitions/X`, JSON-pointer
 * escapes and percent-encoding decoded); a remote or dangling reference is
 * read as written. Siblings of a `$ref` override the keys of its target, as
 * JSON Schema 2019-09 and later apply them. Cycles stop the walk instead of
 * looping. Pure, no I/O.
 *
 * @module
 */

/** A schema reached through its `$ref`s. */
export interface Followed {
  /** The schema, its `$ref`s replaced by their targets (siblings win). */
  schema: Record<string, unknown>;
  /** The `$ref`s followed from the document root down to here. */
  chain: readonly string[];
  /** A `$ref` on the way points back up the chain (or the walk was too long). */
  cyclic: boolean;
}

const MAX_HOPS = 32;

/**
 * Follows the local `$ref`s of `node` inside the document `root`; `chain` is
 * the references already followed on the way to `node`. A node that is not
 * an object reads as `{}` (accepts anything).
 *
 * @example
 * ```ts
 * const root = { $defs: { N: { type: "integer" } } };
 * followRefs({ $ref: "#/$defs/N", description: "n" }, root).schema;
 * // { type: "integer", description: "n" }
 * ```
 */
export function followRefs(node: unknown, root: unknown, chain: readonly string[] = []): Followed {
  let schema = isObject(node) ? node : {};
  const refs = [...chain];
  for (let hops = 0; typeof schema.$ref === "string"; hops++) {
    const ref = schema.$ref;
    const target = lookupRef(root, ref);
    if (!isObject(target)) break; // remote or dangling: read as written
    const { $ref: _, ...siblings } = schema;
    schema = { ...target, ...siblings };
    if (refs.includes(ref) || hops >= MAX_HOPS) return { schema, chain: refs, cyclic: true };
    refs.push(ref);
  }
  return { schema, chain: refs, cyclic: false };
}

/** The node a local reference (`#`, `#/$defs/Filters`) points at in `root`, or undefined. */
function lookupRef(root: unknown, ref: string): unknown {
  if (ref === "#") return root;
  if (!ref.startsWith("#/")) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(2).split("/")) {
    let key: string;
    try {
      key = decodeURIComponent(raw).replaceAll("~1", "/").replaceAll("~0", "~");
    } catch {
      return undefined;
    }
    if (Array.isArray(node) && /^\d+$/.test(key)) node = node[Number(key)];
    else if (isObject(node) && Object.hasOwn(node, key)) node = node[key];
    else return undefined;
  }
  return node;
}

/** True for a plain object (not an array, not null). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
