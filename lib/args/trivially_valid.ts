/**
 * A shortcut before ajv: `true` only when a value certainly satisfies a
 * schema of the shape most tools declare — an object whose properties each
 * declare nothing but primitive `type`s (and annotations) — so that a
 * one-shot `jn cat` need not instantiate ajv and compile the schema
 * (~12 ms). Anything else, and any doubt, answers `false`: ajv then decides
 * and names the violations, so the answer never differs from ajv's.
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

/** True when `value` satisfies `schema` for sure (see the module doc). */
export function isTriviallyValid(value: unknown, schema: JsonSchema): boolean {
  if (!isPlainObject(value) || !isPlainObject(schema) || schema.type !== "object") return false;
  for (const key of Object.keys(schema)) {
    if (
      !ROOT_KEYWORDS.has(key) &&
      !(key === "additionalProperties" && typeof schema[key] === "boolean")
    ) {
      return false;
    }
  }
  const properties = schema.properties ?? {};
  if (!isPlainObject(properties)) return false;
  const required = schema.required ?? [];
  if (!Array.isArray(required)) return false;
  for (const key of required) {
    if (typeof key !== "string" || !Object.hasOwn(value, key) || value[key] === undefined) {
      return false;
    }
  }
  for (const [key, item] of Object.entries(value)) {
    if (!Object.hasOwn(properties, key)) {
      if (schema.additionalProperties === false) return false;
      continue;
    }
    if (!primitiveMatches(item, properties[key])) return false;
  }
  return true;
}

function primitiveMatches(item: unknown, property: unknown): boolean {
  if (!isPlainObject(property)) return false;
  for (const key of Object.keys(property)) {
    if (key !== "type" && !ANNOTATIONS.has(key)) return false;
  }
  const types = Array.isArray(property.type) ? property.type : [property.type];
  if (types.length === 0) return false;
  return types.some((type) => PRIMITIVES.has(type as string) && hasType(item, type as string));
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
