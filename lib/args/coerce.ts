/**
 * lib/args: query and flag strings → typed arguments against a tool's schema;
 * the JSON Schema engine.
 *
 * Turns merged arguments into the JSON object a tool is called with: raw
 * strings (from the query and `--arg`) are converted to the types the tool's
 * `inputSchema` declares; typed values (`--args`, defaults) pass unchanged.
 * Then the object is validated, and every violation is reported at once.
 *
 * Conversions of a raw string, tried in this order for the types the
 * property accepts (`type`, type lists, `anyOf`/`oneOf`, local `$ref`):
 * - integer: `/^-?\d+$/` and a safe integer (`1.5`, `1e3`, `0x10` are not);
 * - number: a decimal with optional fraction and exponent (`1e3`, `-0.5`, `.5`);
 * - boolean: exactly `true` or `false` (not `1`/`0`, `yes`, `True`);
 * - null: exactly `null`;
 * - array / object: a JSON literal of that kind (`[1,2]`, `{"a":1}`);
 * - string: the text unchanged;
 * - array, last: the text as a one-item array, the item converted by `items`.
 * A key given several times is an array whose items are converted by `items`.
 * Text that converts to nothing the schema accepts stays a string, so the
 * validator names the expected type. A property the schema does not describe
 * stays a string. Pure, no I/O.
 *
 * @module
 */

import { ArgumentError, type ArgumentViolation } from "../errors.ts";
import type { JsonSchema } from "../types.ts";
import type { ArgPairs } from "./collect.ts";
import { unknownArguments } from "./declared.ts";
import { checkedViolations, violationHint } from "./check.ts";
import { isObject } from "../schema/ref.ts";
import {
  type AcceptedTypes,
  acceptedTypes,
  itemSchema,
  propertySchema,
  type SchemaNode,
} from "./schema_types.ts";
import type { SchemaEngine } from "./validate.ts";

const INTEGER = /^-?\d+$/;
const NUMBER = /^-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/**
 * Converts raw string arguments by the schema; typed arguments pass through.
 *
 * @example
 * ```ts
 * const schema = { type: "object", properties: { n: { type: "integer" } } };
 * coerceArgs(new Map([["n", { kind: "raw", values: ["5"] }]]), { schema }); // { n: 5 }
 * ```
 */
export function coerceArgs(
  args: ArgPairs,
  options: { schema: JsonSchema },
): Record<string, unknown> {
  const root = options.schema;
  const entries: [string, unknown][] = [];
  for (const [key, arg] of args) {
    if (arg.kind === "json") {
      entries.push([key, arg.value]);
      continue;
    }
    const node = propertySchema(root, root, key);
    const types = acceptedTypes(root, node);
    if (arg.values.length === 1) {
      entries.push([key, coerceText(arg.values[0], { root, node, types })]);
    } else {
      // Repeated keys are a list; a scalar property gets the list and fails validation.
      const item = (i: number) =>
        types !== "any" && types.has("array") ? itemSchema(root, node, i) : node;
      entries.push([key, arg.values.map((text, i) => coerceNode(text, root, item(i)))]);
    }
  }
  // fromEntries defines own properties, so a key named "__proto__" stays data.
  return Object.fromEntries(entries);
}

/** Options of {@linkcode prepareArguments}. */
export interface PrepareOptions {
  /** The tool's name, for messages. */
  tool: string;
  /** The tool's `inputSchema`. */
  schema: JsonSchema;
  /** The JSON Schema engine. */
  engine: SchemaEngine;
  /** Send arguments the schema does not declare (`--allow-unknown`); by default they are an error. */
  allowUnknown?: boolean;
}

/**
 * Coerces, then validates against the schema; throws an `ArgumentError`
 * listing every violation, including a key given several times for a
 * property that takes one value and (unless `allowUnknown`) an argument the
 * schema does not declare (lib/args/declared.ts). The error's hint says how
 * to send an undeclared argument anyway, and how to give an argument named
 * like a reserved query key (`tool`, `list`, …).
 *
 * @example
 * ```ts
 * const engine = createSchemaEngine(await sdkAjvEngines());
 * prepareArguments(collectArgs({ query: source.args }), { tool: "search", schema, engine });
 * ```
 */
export function prepareArguments(
  args: ArgPairs,
  options: PrepareOptions,
): Record<string, unknown> {
  const root = options.schema;
  const value = coerceArgs(args, options);
  const repeated: ArgumentViolation[] = [];
  for (const [key, arg] of args) {
    if (arg.kind !== "raw" || arg.values.length < 2) continue;
    const types = acceptedTypes(root, propertySchema(root, root, key));
    if (types === "any" || types.has("array")) continue;
    repeated.push({
      path: key,
      message: `is given ${arg.values.length} times but takes one value`,
      value: arg.values,
    });
  }
  const unknown = unknownArguments(args.keys(), root);
  const violations = checkedViolations(value, options, { repeated, unknown });
  if (violations.length > 0) {
    throw new ArgumentError(options.tool, violations, { hint: violationHint(violations) });
  }
  return value;
}

function coerceNode(text: string, root: SchemaNode, node: SchemaNode): unknown {
  return coerceText(text, { root, node, types: acceptedTypes(root, node) });
}

function coerceText(
  text: string,
  ctx: { root: SchemaNode; node: SchemaNode; types: AcceptedTypes },
): unknown {
  const { types } = ctx;
  if (types === "any") return text;
  if (types.has("integer") && INTEGER.test(text)) {
    const n = Number(text);
    if (Number.isSafeInteger(n)) return n;
  }
  if (types.has("number") && NUMBER.test(text)) {
    const n = Number(text);
    if (Number.isFinite(n)) return n;
  }
  if (types.has("boolean") && (text === "true" || text === "false")) return text === "true";
  if (types.has("null") && text === "null") return null;
  if (types.has("array") && text.startsWith("[")) {
    const parsed = parseJson(text);
    if (Array.isArray(parsed)) return parsed;
  }
  if (types.has("object") && text.startsWith("{")) {
    const parsed = parseJson(text);
    if (isObject(parsed)) return parsed;
  }
  if (types.has("string")) return text;
  if (types.has("array")) return [coerceNode(text, ctx.root, itemSchema(ctx.root, ctx.node, 0))];
  return text;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
