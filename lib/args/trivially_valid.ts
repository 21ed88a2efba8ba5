/**
 * A shortcut before ajv: `true` only when a value certainly satisfies a
 * schema of the shape most tools declare — an object whose properties each
 * declare nothing but primitive `type`s (and annotations) — so that a
 * one-shot `jn cat` need not instantiate ajv and compile the schema.
 * Anything else, and any doubt, answers `false`: ajv then decides
 * and names the violations, so the answer never differs from ajv's. What a
 * schema allows is read once per schema object (like ajv's compiled
 * validators, lib/args/validate.ts): schemas are not changed once listed.
 *
 * @module
 */

import type { JsonSchema } from "../types.ts";

/** Keywords that only annotate (ajv ignores formats here: `validateFormats: false`). */
const ANNOTATIONS = new Set([
  "$schema",
  "$id",
  "$comment",
  "title",
  "description",
  "default",
  "examples",
  "deprecated",
  "readOnly",
  "writeOnly",
  "format",
]);
const ROOT_KEYWORDS = new Set([...ANNOTATIONS, "type", "properties", "required"]);
const PRIMITIVES = new Set(["string", "number", "integer", "boolean", "null"]);

/**
 * What a flat schema allows, read once per schema object (`put` checks
 * thousands of records against one): the required names, each declared
 * property's primitive types (null when the property declares more than
 * primitive types, so no value of it is certainly valid), and whether
 * undeclared names are refused. Null when the schema is not flat.
 */
interface FlatShape {
  required: string[];
  properties: Map<string, string[] | null>;
  closed: boolean;
}

const shapes = new WeakMap<object, FlatShape | null>();

/** True when `value` satisfies `schema` for sure (see the module doc). */
export function isTriviallyValid(value: unknown, schema: JsonSchema): boolean {
  if (!isPlainObject(value) || !isPlainObject(schema)) return false;
  let shape = shapes.get(schema);
  if (shape === undefined) {
    shape = flatShape(schema);
    shapes.set(schema, shape);
  }
  if (shape === null) return false;
  for (const key of shape.required) {
    if (!Object.hasOwn(value, key) || value[key] === undefined) return false;
  }
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const types = shape.properties.get(key);
    if (types === undefined) {
      if (shape.closed) return false;
      continue;
    }
    if (types === null || !hasAnyType(value[key], types)) return false;
  }
  return true;
}

function hasAnyType(item: unknown, types: string[]): boolean {
  for (const type of types) if (hasType(item, type)) return true;
  return false;
}

function flatShape(schema: Record<string, unknown>): FlatShape | null {
  if (schema.type !== "object") return null;
  for (const key of Object.keys(schema)) {
    if (
      !ROOT_KEYWORDS.has(key) &&
      !(key === "additionalProperties" && typeof schema[key] === "boolean")
    ) {
      return null;
    }
  }
  const properties = schema.properties ?? {};
  if (!isPlainObject(properties)) return null;
  const required = schema.required ?? [];
  if (!Array.isArray(required) || !required.every((key) => typeof key === "string")) return null;
  const types = new Map<string, string[] | null>();
  for (const key of Object.keys(properties)) types.set(key, primitiveTypes(properties[key]));
  return { required, properties: types, closed: schema.additionalProperties === false };
}

/** The primitive types a property allows, or null when it declares anything more. */
function primitiveTypes(property: unknown): string[] | null {
  if (!isPlainObject(property)) return null;
  for (const key of Object.keys(property)) {
    if (key !== "type" && !ANNOTATIONS.has(key)) return null;
  }
  const types = Array.isArray(property.type) ? property.type : [property.type];
  const primitive = types.filter((type) => PRIMITIVES.has(type as string)) as string[];
  return primitive.length === 0 ? null : primitive;
}

function hasType(item: unknown, type: string): boolean {
  switch (type) {
    case "string":
      return typeof item === "string";
    case "number":
      return typeof item === "number" && Number.isFinite(item);
    case "integer":
      return typeof item === "number" && Number.isInteger(item);
    case "boolean":
      return typeof item === "boolean";
    case "null":
      return item === null;
  }
  return false;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
