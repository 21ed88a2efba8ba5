/**
 * jn's one `$ref` resolver, for everything that reads a JSON Schema: the
 * schema diff (schema_view.ts), pinning's comparison (same.ts) and argument
 * coercion (lib/args). Only references inside the document are followed:
 * JSON pointers (`#`, `#/$defs/X`, `#/definitions/X`, escapes and
 * percent-encoding decoded, from the document's root), plain-name fragments
 * (`#name`: a schema's `$anchor` or `$dynamicAnchor`, or draft-07's
 * `$id: "#name"`) and the `$id`s of embedded schemas (`other.json`,
 * `other.json#/properties/a`, resolved against the root's `$id`); a remote
 * or dangling reference is read as written. Siblings of a `$ref` override
 * the keys of its target, as JSON Schema 2019-09 and later apply them.
 * Cycles stop the walk instead of looping. Pure, no I/O.
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
  /** The nodes the `$ref`s of `node` itself led to, in order (the document's own objects). */
  targets: readonly Record<string, unknown>[];
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
  const targets: Record<string, unknown>[] = [];
  for (let hops = 0; typeof schema.$ref === "string"; hops++) {
    const ref = schema.$ref;
    const target = lookupRef(root, ref);
    if (!isObject(target)) break; // remote or dangling: read as written
    targets.push(target);
    const { $ref: _, ...siblings } = schema;
    schema = { ...target, ...siblings };
    if (refs.includes(ref) || hops >= MAX_HOPS) {
      return { schema, chain: refs, cyclic: true, targets };
    }
    refs.push(ref);
  }
  return { schema, chain: refs, cyclic: false, targets };
}

/**
 * The node a reference points at inside the document `root`, or undefined:
 * a JSON pointer from the root (`#`, `#/$defs/Filters`), an anchor
 * (`#gene`), an embedded schema's `$id` (with a pointer or an anchor after
 * it).
 *
 * @example
 * ```ts
 * const root = { $defs: { g: { $anchor: "gene", type: "string" } } };
 * lookupRef(root, "#gene"); // { $anchor: "gene", type: "string" }
 * ```
 */
export function lookupRef(root: unknown, ref: string): unknown {
  if (ref === "#") return root;
  if (ref.startsWith("#/")) return pointerTarget(root, ref.slice(2));
  if (!isObject(root)) return undefined;
  const index = documentIndex(root);
  const absolute = resolveUri(ref, index.base);
  if (absolute === undefined) return undefined;
  const hash = absolute.indexOf("#");
  const resource = hash === -1 ? absolute : absolute.slice(0, hash);
  const fragment = hash === -1 ? "" : absolute.slice(hash + 1);
  if (fragment === "") return index.nodes.get(resource);
  if (fragment.startsWith("/")) {
    const target = index.nodes.get(resource);
    return target === undefined ? undefined : pointerTarget(target, fragment.slice(1));
  }
  return index.nodes.get(`${resource}#${fragment}`);
}

/** The node at a JSON pointer (without its leading `/`) below `root`, or undefined. */
function pointerTarget(root: unknown, pointer: string): unknown {
  let node: unknown = root;
  for (const raw of pointer.split("/")) {
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

/** A document's embedded schemas (`$id`) and anchors, by absolute URI; and the root's base URI. */
interface DocumentIndex {
  base: string;
  nodes: Map<string, Record<string, unknown>>;
}

/** The base of a document without an `$id` of its own (a name no reference reaches by accident). */
const DEFAULT_BASE = "https://jn.invalid/schema.json";
/** Keywords whose values are data, not schemas: an `$anchor` in a default names nothing. */
const DATA_KEYWORDS = new Set(["enum", "const", "default", "examples", "example"]);
const MAX_DEPTH = 64;
const INDEXES = new WeakMap<object, DocumentIndex>();

/** The index of `root` (built once per document; the first of two equal names wins). */
function documentIndex(root: Record<string, unknown>): DocumentIndex {
  const cached = INDEXES.get(root);
  if (cached !== undefined) return cached;
  const nodes = new Map<string, Record<string, unknown>>();
  const add = (uri: string, node: Record<string, unknown>) => {
    if (!nodes.has(uri)) nodes.set(uri, node);
  };
  const visit = (node: unknown, base: string, depth: number) => {
    if (depth > MAX_DEPTH) return;
    if (Array.isArray(node)) {
      for (const item of node) visit(item, base, depth + 1);
      return;
    }
    if (!isObject(node)) return;
    let here = base;
    if (typeof node.$id === "string") {
      const id = resolveUri(node.$id, base);
      if (id !== undefined && node.$id.startsWith("#")) add(id, node); // draft-07: `$id: "#name"`
      else if (id !== undefined) {
        here = id.split("#")[0];
        add(here, node);
      }
    }
    for (const key of ["$anchor", "$dynamicAnchor"]) {
      const anchor = node[key];
      if (typeof anchor === "string" && anchor !== "") add(`${here}#${anchor}`, node);
    }
    for (const [key, value] of Object.entries(node)) {
      if (!DATA_KEYWORDS.has(key)) visit(value, here, depth + 1);
    }
  };
  visit(root, DEFAULT_BASE, 0);
  const ownId = typeof root.$id === "string" && !root.$id.startsWith("#")
    ? resolveUri(root.$id, DEFAULT_BASE)
    : undefined;
  const base = ownId?.split("#")[0] ?? DEFAULT_BASE;
  add(base, root);
  const index = { base, nodes };
  INDEXES.set(root, index);
  return index;
}

/** `ref` resolved against `base` (an absolute URI), or undefined when it is not a URI reference. */
function resolveUri(ref: string, base: string): string | undefined {
  try {
    return new URL(ref, base).href;
  } catch {
    return undefined;
  }
}

/** True for a plain object (not an array, not null). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
