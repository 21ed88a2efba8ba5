/**
 * `jn inspect --format brief`: what a server offers in as few bytes as an
 * agent can still call it correctly from — one line per tool, resource,
 * template and prompt, under a one-word heading per kind (`tools:`, …):
 *
 *   add(a: number, b: number) → {sum: number} — Adds a and b.
 *   echo(text: string, repeat?: integer = 1) — Returns the text you send.
 *   demo://readme text/markdown — What the demo server offers
 *   summarize(topic, style?) — Asks the model for a short summary of a topic.
 *
 * Types are TypeScript-like: `?` marks an optional parameter or field,
 * `= value` its default, an enum is its values (`"red"|"green"`), `integer`
 * stays distinct from `number`, a string format shows as `string<uri>`,
 * an array is `T[]`, an object shows its fields (`{name: string, tags?:
 * string[]}`) to {@linkcode MAX_DEPTH} levels (deeper: `object`), a map is
 * `{[key: string]: T}`, and local `$ref`s are followed (a cycle is shown by
 * the name it points to). A description is cut to its first sentence.
 *
 * Every string comes from the server: each line goes through
 * {@linkcode visible} on one line, so none can carry a control character
 * or break the one-line-per-item shape.
 *
 * @module
 */

import type { JsonSchema, PromptInfo, ToolInfo } from "../types.ts";
import type { Inventory } from "./inventory.ts";
import { visible } from "./visible.ts";

/** How many levels of nested object fields are spelled out. */
export const MAX_DEPTH = 3;

/** How long a first sentence may be before it is cut (`…`). */
const SENTENCE_CHARS = 160;

/** Renders an inventory in the brief format (see the module doc). */
export function formatBrief(inventory: Inventory): string {
  const out: string[] = [];
  const section = <T>(title: string, items: T[], line: (item: T) => string) => {
    if (items.length === 0) return;
    out.push(`${title}:`, ...items.map((item) => visible(line(item), { oneLine: true })));
  };
  section("tools", inventory.tools, toolLine);
  section("resources", inventory.resources, (resource) =>
    described(
      [resource.uri, resource.mimeType].filter(Boolean).join(" "),
      resource.description as string | undefined,
    ));
  section("templates", inventory.resource_templates, (template) =>
    described(
      [template.uriTemplate, template.mimeType].filter(Boolean).join(" "),
      template.description as string | undefined,
    ));
  section("prompts", inventory.prompts, promptLine);
  for (const [kind, error] of Object.entries(inventory.errors ?? {})) {
    out.push(visible(`${kind}: not listed: ${error}`, { oneLine: true }));
  }
  return out.length === 0 ? "" : `${out.join("\n")}\n`;
}

/** `name(params) → output — first sentence`. */
export function toolLine(tool: ToolInfo): string {
  return described(toolSignature(tool), tool.description);
}

/** `name(params) → output`: how to call the tool and what it returns. */
export function toolSignature(tool: ToolInfo): string {
  const output = tool.outputSchema ? ` → ${schemaType(tool.outputSchema)}` : "";
  return `${tool.name}(${params(tool.inputSchema)})${output}`;
}

/** The brief type of a whole schema (its own `$ref`s resolved against it). */
export function schemaType(schema: JsonSchema): string {
  return typeOf(schema, schema, 0);
}

/** `name(arg, optional?) — first sentence` (prompt arguments are strings). */
export function promptLine(prompt: PromptInfo): string {
  const args = (prompt.arguments ?? []).map((a) => `${a.name}${a.required ? "" : "?"}`);
  return described(`${prompt.name}(${args.join(", ")})`, prompt.description);
}

/** The parameters of a tool's input schema: `a: number, b?: string[] = []`. */
export function params(schema: JsonSchema | undefined): string {
  return fields(schema ?? {}, schema ?? {}, 0);
}

/** The first sentence of a description, on one line, cut to {@linkcode SENTENCE_CHARS}. */
export function firstSentence(text: string | undefined): string {
  const flat = String(text ?? "").trim().replace(/\s+/g, " ");
  const end = flat.search(/[.!?](?=\s|$)/);
  const sentence = end < 0 ? flat : flat.slice(0, end + 1);
  return sentence.length > SENTENCE_CHARS ? `${sentence.slice(0, SENTENCE_CHARS - 1)}…` : sentence;
}

function described(head: string, description: string | undefined): string {
  const sentence = firstSentence(description);
  return sentence ? `${head} — ${sentence}` : head;
}

/** `key: T, other?: T = default` of an object schema's properties. */
function fields(schema: JsonSchema, root: JsonSchema, depth: number, seen = new Set<string>()) {
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  return Object.entries(schema.properties ?? {}).map(([name, prop]) => {
    const resolved = resolve(prop, root);
    const defaulted = resolved?.default === undefined ? "" : ` = ${json(resolved.default)}`;
    return `${key(name)}${required.has(name) ? "" : "?"}: ${
      typeOf(prop, root, depth, seen)
    }${defaulted}`;
  }).join(", ");
}

/** The TypeScript-like type of a schema. */
function typeOf(
  schema: JsonSchema | boolean | undefined,
  root: JsonSchema,
  depth: number,
  seen = new Set<string>(),
): string {
  if (schema === undefined || schema === true) return "any";
  if (schema === false) return "never";
  if (typeof schema.$ref === "string") {
    const target = refTarget(schema.$ref, root);
    if (target === undefined || seen.has(schema.$ref)) return refName(schema.$ref);
    return typeOf(target, root, depth, new Set([...seen, schema.$ref]));
  }
  if (schema.const !== undefined) return json(schema.const);
  if (Array.isArray(schema.enum)) return schema.enum.map(json).join("|");
  const union = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (Array.isArray(union)) return union.map((s) => typeOf(s, root, depth, seen)).join("|");
  if (Array.isArray(schema.allOf)) {
    return (schema.allOf as JsonSchema[]).map((s) => typeOf(s, root, depth, seen)).join("&");
  }
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.length > 1) {
    return types.map((type) => typeOf({ ...schema, type }, root, depth, seen)).join("|");
  }
  const type = types[0] ?? (schema.properties ? "object" : schema.items ? "array" : undefined);
  switch (type) {
    case "array": {
      const items = Array.isArray(schema.items) ? schema.items : [schema.items];
      const inner = items.map((item) => typeOf(item, root, depth, seen));
      if (Array.isArray(schema.items)) return `[${inner.join(", ")}]`;
      return /[|&]/.test(inner[0]) && !/^[{[]/.test(inner[0]) ? `(${inner[0]})[]` : `${inner[0]}[]`;
    }
    case "object":
      return objectType(schema, root, depth, seen);
    case "string":
      return typeof schema.format === "string" ? `string<${schema.format}>` : "string";
    case undefined:
      return "any";
    default:
      return String(type);
  }
}

function objectType(schema: JsonSchema, root: JsonSchema, depth: number, seen: Set<string>) {
  const hasFields = Object.keys(schema.properties ?? {}).length > 0;
  const extra = schema.additionalProperties;
  const values = typeof extra === "object" && extra !== null
    ? typeOf(extra as JsonSchema, root, depth + 1, seen)
    : "any";
  // A map of anything is just an object.
  const map = values === "any" ? "" : `[key: string]: ${values}`;
  if (!hasFields && !map) return "object";
  if (depth + 1 > MAX_DEPTH) return "object";
  const inner = [hasFields ? fields(schema, root, depth + 1, seen) : "", map].filter(Boolean);
  return `{${inner.join(", ")}}`;
}

/** The schema a local `$ref` (`#/$defs/x`, `#/definitions/x`) points to. */
function refTarget(ref: string, root: JsonSchema): JsonSchema | undefined {
  if (!ref.startsWith("#")) return undefined;
  let node: unknown = root;
  for (const part of ref.slice(1).split("/").filter(Boolean)) {
    const name = decodeURIComponent(part).replaceAll("~1", "/").replaceAll("~0", "~");
    node = typeof node === "object" && node !== null
      ? (node as Record<string, unknown>)[name]
      : undefined;
  }
  return typeof node === "object" && node !== null ? node as JsonSchema : undefined;
}

function resolve(schema: JsonSchema | undefined, root: JsonSchema): JsonSchema | undefined {
  return typeof schema?.$ref === "string" ? refTarget(schema.$ref, root) ?? schema : schema;
}

function refName(ref: string): string {
  return ref.split("/").pop() || "any";
}

/** A property name as is when it reads as one, quoted otherwise. */
function key(name: string): string {
  return /^[A-Za-z_$][\w$.-]*$/.test(name) ? name : JSON.stringify(name);
}

function json(value: unknown): string {
  return JSON.stringify(value) ?? "null";
}
