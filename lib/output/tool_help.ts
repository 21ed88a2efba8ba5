/**
 * One tool's help — what `jn help @profile/tool` and `jn inspect
 * SOURCE?tool=NAME` show: its signature (the brief format's, brief.ts), its
 * whole description, each parameter with its type, required-ness, default,
 * enum and bounds, its output, what the profile adds (notes, examples,
 * `tested_with`, `output_format`, defaults), and last the input schema as
 * JSON. The {@linkcode ToolHelp} record is the data (`--format json`); this
 * module also renders it as text.
 *
 * Server and profile text is shown with its control characters made
 * visible (visible.ts) before jn's own styling is added.
 *
 * @module
 */

import type { JsonSchema } from "../types.ts";
import { firstSentence, schemaType } from "./brief.ts";
import type { Style } from "./style.ts";
import { visible } from "./visible.ts";

/** What the profile says about a tool (its display form: substituted values are `***`). */
export interface ProfileToolNotes {
  /** The profile's description of the tool (may differ from the server's). */
  description?: string;
  /** The media type the tool answers with. */
  output_format?: string;
  /** Observations about the tool's behaviour. */
  notes?: unknown;
  /** Example calls (`{input, output_sample}`). */
  examples?: unknown[];
  /** The calls the profile was tested with. */
  tested_with?: unknown;
  /** Arguments the profile fills in. */
  defaults?: Record<string, unknown>;
}

/** One tool's help: `{"type":"tool_help", …}`. */
export interface ToolHelp {
  /** Always `"tool_help"`. */
  type: "tool_help";
  /** The server: `@profile`, or the naked URI's name. */
  source: string;
  /** The name to call it by from `source` (a profile's tool name, or the server's). */
  name: string;
  /** The server's tool name. */
  tool: string;
  /** Where the schema comes from: the live server, or the profile's saved snapshot. */
  origin: "live" | "profile";
  /** `name(a: number, b?: string[]) → {sum: number}`. */
  signature: string;
  /** The whole description (the server's; the profile's when only it has one). */
  description?: string;
  /** The input schema. */
  inputSchema: JsonSchema;
  /** The output schema, when the tool has one. */
  outputSchema?: JsonSchema;
  /** What the profile says about the tool, when it has a profile entry. */
  profile?: ProfileToolNotes;
}

/** A server's or profile's string, on one line, safe for a terminal. */
const v = (text: unknown) => visible(typeof text === "string" ? text : JSON.stringify(text));

/** The help as text. */
export function formatToolHelp(help: ToolHelp, s: Style): string {
  const out = [s.bold(visible(help.signature, { oneLine: true }))];
  if (help.name !== help.tool) out.push(s.dim(`calls the server's tool ${v(help.tool)}`));
  const description = help.description ?? help.profile?.description;
  if (description) out.push("", v(description.trim()));
  if (help.profile?.description && help.profile.description !== description) {
    out.push("", `${s.bold("Profile:")} ${v(help.profile.description)}`);
  }
  const params = parameterLines(help.inputSchema);
  if (params.length > 0) out.push("", s.bold("Parameters:"), ...params);
  if (help.outputSchema) out.push("", `${s.bold("Returns:")} ${v(schemaType(help.outputSchema))}`);
  const profile = help.profile ?? {};
  if (profile.output_format) out.push(`${s.bold("Output format:")} ${v(profile.output_format)}`);
  if (profile.defaults && Object.keys(profile.defaults).length > 0) {
    out.push(`${s.bold("Profile defaults:")} ${v(JSON.stringify(profile.defaults))}`);
  }
  if (profile.notes !== undefined) out.push("", s.bold("Notes:"), ...listLines(profile.notes));
  if (profile.examples?.length) {
    out.push("", s.bold("Examples:"), ...profile.examples.flatMap(exampleLines));
  }
  if (profile.tested_with !== undefined) {
    out.push("", s.bold("Tested with:"), ...listLines(profile.tested_with));
  }
  out.push(
    "",
    s.bold(`Input schema${help.origin === "profile" ? " (the profile's snapshot)" : ""}:`),
    v(JSON.stringify(help.inputSchema, null, 2)),
  );
  return out.join("\n") + "\n";
}

/** `  name: type (required) = default — description; one of …; 1 ≤ n ≤ 10`. */
function parameterLines(schema: JsonSchema): string[] {
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  return Object.entries(schema.properties ?? {}).map(([name, prop]) => {
    const facts: string[] = [];
    const type = schemaType({ ...prop, ...(schema.$defs ? { $defs: schema.$defs } : {}) });
    let head = `  ${name}${required.has(name) ? "" : "?"}: ${type}`;
    if (prop.default !== undefined) head += ` = ${JSON.stringify(prop.default)}`;
    if (typeof prop.description === "string") facts.push(prop.description.trim());
    const bounds = [
      prop.minimum !== undefined && `≥ ${prop.minimum}`,
      prop.exclusiveMinimum !== undefined && `> ${prop.exclusiveMinimum}`,
      prop.maximum !== undefined && `≤ ${prop.maximum}`,
      prop.exclusiveMaximum !== undefined && `< ${prop.exclusiveMaximum}`,
      prop.minLength !== undefined && `length ≥ ${prop.minLength}`,
      prop.maxLength !== undefined && `length ≤ ${prop.maxLength}`,
      prop.pattern !== undefined && `matches ${prop.pattern}`,
    ].filter(Boolean);
    if (bounds.length > 0) facts.push(bounds.join(", "));
    return visible(facts.length > 0 ? `${head} — ${facts.join("; ")}` : head, { oneLine: true });
  });
}

function listLines(value: unknown): string[] {
  const items = Array.isArray(value) ? value : [value];
  if (!Array.isArray(value) && typeof value === "object" && value !== null) {
    return Object.entries(value).map(([key, item]) =>
      visible(`  ${key}: ${typeof item === "string" ? item : JSON.stringify(item)}`, {
        oneLine: true,
      })
    );
  }
  return items.map((item) =>
    visible(`  ${typeof item === "string" ? item : JSON.stringify(item)}`, { oneLine: true })
  );
}

function exampleLines(example: unknown): string[] {
  if (typeof example !== "object" || example === null || Array.isArray(example)) {
    return listLines(example);
  }
  const { input, output_sample: sample, ...rest } = example as Record<string, unknown>;
  const lines = [`  ${input === undefined ? JSON.stringify(rest) : JSON.stringify(input)}`];
  if (sample !== undefined) {
    const text = typeof sample === "string" ? sample : JSON.stringify(sample);
    lines.push(`    → ${firstSentence(text) || text.slice(0, 160)}`);
  }
  return lines.map((line) => visible(line, { oneLine: true }));
}
