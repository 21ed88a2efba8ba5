/**
 * The fields of an elicitation form (MCP `requestedSchema`: a flat object of
 * strings, numbers, booleans, single- and multi-select enums) and the parsing
 * of what a user typed for each, validated against the field's schema.
 * Pure: no I/O, so the prompt, `--elicit accept-defaults` and answers given
 * as data (elicit_answers.ts) share it.
 *
 * @module
 */

import type { JsonSchema } from "../types.ts";

/** An answer value MCP allows in elicitation content. */
export type FieldValue = string | number | boolean | string[];

/** One choice of an enum field. */
export interface Choice {
  value: string;
  title: string;
}

/** One field of the form. */
export interface Field {
  name: string;
  /** The title (or the name) for the prompt. */
  title: string;
  description?: string;
  kind: "string" | "number" | "integer" | "boolean" | "choice" | "multi";
  required: boolean;
  default?: FieldValue;
  choices?: Choice[];
  schema: JsonSchema;
}

/** The fields of a requested schema, in schema order. */
export function formFields(schema: JsonSchema | undefined): Field[] {
  const required = new Set(schema?.required ?? []);
  return Object.entries(schema?.properties ?? {}).map(([name, property]) => {
    const items = property.items as JsonSchema | undefined;
    const kind: Field["kind"] = property.type === "array"
      ? "multi"
      : choicesOf(property)
      ? "choice"
      : property.type === "number" || property.type === "integer" || property.type === "boolean"
      ? property.type
      : "string";
    return {
      name,
      title: typeof property.title === "string" ? property.title : name,
      description: property.description,
      kind,
      required: required.has(name),
      default: property.default as FieldValue | undefined,
      choices: kind === "multi" ? choicesOf(items ?? {}) : choicesOf(property),
      schema: property,
    };
  });
}

function choicesOf(schema: JsonSchema): Choice[] | undefined {
  const options = (schema.oneOf ?? schema.anyOf) as
    | { const?: unknown; title?: string }[]
    | undefined;
  if (Array.isArray(options) && options.every((o) => typeof o?.const === "string")) {
    return options.map((o) => ({ value: String(o.const), title: o.title ?? String(o.const) }));
  }
  if (Array.isArray(schema.enum)) {
    const names = Array.isArray(schema.enumNames) ? schema.enumNames as string[] : [];
    return schema.enum.map((value, i) => ({
      value: String(value),
      title: names[i] ?? String(value),
    }));
  }
  return undefined;
}

/** The outcome of parsing one answer. */
export type Parsed = { ok: true; value: FieldValue | undefined } | { ok: false; message: string };

/** Parses and validates what was typed for a field ("" = default, or nothing). */
export function parseAnswer(field: Field, input: string): Parsed {
  const text = input.trim();
  if (text === "") {
    if (field.default !== undefined) return { ok: true, value: field.default };
    return field.required
      ? { ok: false, message: "an answer is required" }
      : { ok: true, value: undefined };
  }
  const s = field.schema;
  switch (field.kind) {
    case "boolean":
      if (/^(y|yes|true|1)$/i.test(text)) return { ok: true, value: true };
      if (/^(n|no|false|0)$/i.test(text)) return { ok: true, value: false };
      return { ok: false, message: "answer y or n" };
    case "number":
    case "integer": {
      const value = Number(text);
      if (!Number.isFinite(value)) return { ok: false, message: "not a number" };
      if (field.kind === "integer" && !Number.isInteger(value)) {
        return { ok: false, message: "must be a whole number" };
      }
      if (typeof s.minimum === "number" && value < s.minimum) {
        return { ok: false, message: `must be at least ${s.minimum}` };
      }
      if (typeof s.maximum === "number" && value > s.maximum) {
        return { ok: false, message: `must be at most ${s.maximum}` };
      }
      return { ok: true, value };
    }
    case "choice": {
      const choice = pick(field.choices ?? [], text);
      return choice
        ? { ok: true, value: choice.value }
        : { ok: false, message: "pick one of the choices" };
    }
    case "multi": {
      const picked = text.split(",").map((part) => pick(field.choices ?? [], part.trim()));
      if (picked.some((c) => c === undefined)) {
        return { ok: false, message: "pick from the choices, separated by commas" };
      }
      const values = [...new Set(picked.map((c) => c!.value))];
      const items = field.schema;
      if (typeof items.minItems === "number" && values.length < items.minItems) {
        return { ok: false, message: `pick at least ${items.minItems}` };
      }
      if (typeof items.maxItems === "number" && values.length > items.maxItems) {
        return { ok: false, message: `pick at most ${items.maxItems}` };
      }
      return { ok: true, value: values };
    }
    case "string":
      return checkString(s, text);
  }
}

function pick(choices: Choice[], text: string): Choice | undefined {
  const index = /^\d+$/.test(text) ? Number(text) - 1 : -1;
  return choices[index] ??
    choices.find((c) => c.value === text || c.title.toLowerCase() === text.toLowerCase());
}

function checkString(s: JsonSchema, text: string): Parsed {
  if (typeof s.minLength === "number" && text.length < s.minLength) {
    return { ok: false, message: `must be at least ${s.minLength} characters` };
  }
  if (typeof s.maxLength === "number" && text.length > s.maxLength) {
    return { ok: false, message: `must be at most ${s.maxLength} characters` };
  }
  const formats: Record<string, [RegExp | ((t: string) => boolean), string]> = {
    email: [/^[^\s@]+@[^\s@]+\.[^\s@]+$/, "not an email address"],
    uri: [(t) => URL.canParse(t), "not a URI"],
    date: [/^\d{4}-\d{2}-\d{2}$/, "use YYYY-MM-DD"],
    "date-time": [(t) => !Number.isNaN(Date.parse(t)) && /T/.test(t), "use YYYY-MM-DDTHH:MM:SSZ"],
  };
  const format = typeof s.format === "string" ? formats[s.format] : undefined;
  if (format) {
    const [check, message] = format;
    if (!(typeof check === "function" ? check(text) : check.test(text))) {
      return { ok: false, message };
    }
  }
  return { ok: true, value: text };
}

/** `--elicit accept-defaults`: the defaults, or the required fields that have none. */
export function defaultContent(
  fields: Field[],
): { content: Record<string, FieldValue> } | { missing: string[] } {
  const content: Record<string, FieldValue> = {};
  const missing: string[] = [];
  for (const field of fields) {
    if (field.default !== undefined) content[field.name] = field.default;
    else if (field.required) missing.push(field.name);
  }
  return missing.length > 0 ? { missing } : { content };
}
