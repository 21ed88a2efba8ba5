/**
 * Reads what a JSON Schema says about one value's type, for coercion: local
 * `$ref`s are followed (lib/schema/ref.ts, jn's one resolver), `anyOf`/`oneOf`
 * contribute the union of their branches' types, and an `enum` or `const`
 * without `type` contributes the types of its values. Pure, no I/O.
 *
 * @module
 */

import { followRefs, isObject } from "../schema/ref.ts";

/** A schema node: an object, or `true`/`false`. */
export type SchemaNode = unknown;

/** Types a schema accepts, or `"any"` when it does not constrain the type. */
export type AcceptedTypes = Set<string> | "any";

const MAX_REF_DEPTH = 32;

/** `node` with its local `$ref`s followed; undefined for a boolean schema or a cycle. */
function resolveRef(
  root: SchemaNode,
  node: SchemaNode,
): Record<string, unknown> | undefined {
  if (!isObject(node)) return undefined;
  const followed = followRefs(node, root);
  return followed.cyclic ? undefined : followed.schema;
}

/** The types `node` accepts. */
export function acceptedTypes(root: SchemaNode, node: SchemaNode, depth = 0): AcceptedTypes {
  const schema = resolveRef(root, node);
  if (schema === undefined || depth > MAX_REF_DEPTH) return "any";
  if (typeof schema.type === "string") return new Set([schema.type]);
  if (Array.isArray(schema.type)) return new Set(schema.type.filter((t) => typeof t === "string"));
  const branches = [schema.anyOf, schema.oneOf].find(Array.isArray);
  if (branches !== undefined) {
    const union = new Set<string>();
    for (const branch of branches) {
      const types = acceptedTypes(root, branch, depth + 1);
      if (types === "any") return "any";
      for (const t of types) union.add(t);
    }
    return union;
  }
  const values = Array.isArray(schema.enum)
    ? schema.enum
    : Object.hasOwn(schema, "const")
    ? [schema.const]
    : undefined;
  if (values !== undefined) return new Set(values.map(jsonType));
  return "any";
}

/** The schema of property `key` of the object schema `node`, if it says anything. */
export function propertySchema(root: SchemaNode, node: SchemaNode, key: string): SchemaNode {
  const schema = resolveRef(root, node);
  if (schema === undefined) return undefined;
  const properties = schema.properties;
  if (isObject(properties) && Object.hasOwn(properties, key)) return properties[key];
  if (isObject(schema.additionalProperties)) return schema.additionalProperties;
  return undefined;
}

/** The schema of item `index` of the array schema `node` (or of its array branch). */
export function itemSchema(root: SchemaNode, node: SchemaNode, index: number): SchemaNode {
  const schema = arrayBranch(root, node);
  if (schema === undefined) return undefined;
  if (Array.isArray(schema.prefixItems) && index < schema.prefixItems.length) {
    return schema.prefixItems[index];
  }
  if (Array.isArray(schema.items)) {
    return index < schema.items.length ? schema.items[index] : schema.additionalItems;
  }
  return schema.items;
}

function arrayBranch(root: SchemaNode, node: SchemaNode): Record<string, unknown> | undefined {
  const schema = resolveRef(root, node);
  if (schema === undefined) return undefined;
  const direct = typeof schema.type === "string"
    ? [schema.type]
    : Array.isArray(schema.type)
    ? schema.type
    : [];
  if (direct.includes("array") || "items" in schema || "prefixItems" in schema) return schema;
  const branches = [schema.anyOf, schema.oneOf].find(Array.isArray) ?? [];
  for (const branch of branches) {
    const found = arrayBranch(root, branch);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The JSON Schema type name of a JSON value. */
function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}
