/**
 * Human-readable text of `jn inspect`: what a server offers, with parameter
 * signatures, for a person at a terminal. Data for programs is
 * `--format json`; this text is not a stable interface.
 *
 * Every name, title, URI and description comes from the server: each is shown
 * with its control characters made visible (lib/output/visible.ts) before
 * jn's own colours are added, so a description cannot clear the screen,
 * retitle the window or reorder what the user reads.
 *
 * @module
 */

import type { Style } from "./style.ts";
import type { JsonSchema, ToolInfo } from "../types.ts";
import type { Inventory } from "./inventory.ts";
import { visible } from "./visible.ts";

/** A server's string, on one line and safe for a terminal. */
function v(text: unknown): string {
  return visible(String(text ?? ""), { oneLine: true });
}

/** Renders an inventory as text. */
export function formatInventory(inventory: Inventory, s: Style): string {
  const out: string[] = [];
  const info = inventory.serverInfo;
  const title = [info.name ?? inventory.server, info.version].filter(Boolean).map(v).join(" ");
  out.push(
    `${s.bold(title)}  ${
      s.dim(`(${inventory.transport}, protocol ${v(inventory.protocolVersion ?? "?")})`)
    }`,
  );
  if (inventory.instructions) out.push(...instructionLines(inventory.instructions, s));
  const errors = inventory.errors ?? {};
  section(out, s, "Tools", inventory.tools, errors.tools, (tool) => [
    `${s.cyan(v(tool.name))}(${v(signature(tool.inputSchema))})${
      tool.outputSchema ? s.dim(" → structured") : ""
    }`,
    ...describe(tool.description, s),
    ...parameterLines(tool.inputSchema, s),
    ...taskLines(tool, s),
  ]);
  out.push(...hiddenToolsNote(inventory, s));
  section(out, s, "Resources", inventory.resources, errors.resources, (resource) => [
    `${s.cyan(v(resource.uri))}${resource.mimeType ? s.dim(`  ${v(resource.mimeType)}`) : ""}${
      resource.name && resource.name !== resource.uri ? `  ${v(resource.name)}` : ""
    }`,
    ...describe(resource.description as string | undefined, s),
  ]);
  section(
    out,
    s,
    "Resource templates",
    inventory.resource_templates,
    errors.resource_templates,
    (template) => [
      `${s.cyan(v(template.uriTemplate))}${template.name ? `  ${v(template.name)}` : ""}`,
      ...describe(template.description as string | undefined, s),
    ],
  );
  section(out, s, "Prompts", inventory.prompts, errors.prompts, (prompt) => [
    `${s.cyan(v(prompt.name))}(${
      v((prompt.arguments ?? []).map((a) => (a.required ? a.name : `${a.name}?`)).join(", "))
    })`,
    ...describe(prompt.description, s),
  ]);
  return out.join("\n") + "\n";
}

function section<T>(
  out: string[],
  s: Style,
  title: string,
  items: T[],
  error: string | undefined,
  render: (item: T) => string[],
) {
  if (error !== undefined) {
    out.push("", s.bold(title), `  ${s.yellow("not listed:")} ${v(error)}`);
    return;
  }
  out.push("", s.bold(`${title} (${items.length})`));
  if (items.length === 0) out.push(s.dim("  none"));
  for (const item of items) {
    const [first, ...rest] = render(item);
    out.push(`  ${first}`, ...rest.map((line) => `      ${line}`));
  }
}

/**
 * What jn did not offer this server, when it offers tools: servers such as
 * server-everything register some tools only for clients that declare
 * sampling, elicitation or roots, and list nothing to say so.
 */
function hiddenToolsNote(inventory: Inventory, s: Style): string[] {
  const offered = inventory.clientCapabilities;
  if (!offered || !inventory.capabilities.tools || inventory.errors?.tools) return [];
  const missing: string[] = [];
  if (!offered.sampling) missing.push("sampling (--sampling-command CMD)");
  if (!offered.elicitation) missing.push("elicitation (--elicit prompt)");
  if (!offered.roots) missing.push("roots (--root PATH)");
  if (missing.length === 0) return [];
  return [
    s.dim(`  jn did not offer ${missing.join(", ")}: the server may hide tools that need them`),
  ];
}

/** How a task-augmented tool is called (2025-11-25 `execution.taskSupport`). */
function taskLines(tool: ToolInfo, s: Style): string[] {
  const support = (tool.execution as { taskSupport?: unknown } | undefined)?.taskSupport;
  if (support === "required") return [s.dim("task-only: jn calls it as a task")];
  if (support === "optional") return [s.dim("can run as a task: add --task")];
  return [];
}

function describe(text: string | undefined, s: Style): string[] {
  if (!text) return [];
  const lines = String(text).trim().split("\n");
  const shown = lines.slice(0, 3).map((line) => s.dim(v(line.trim())));
  if (lines.length > 3) shown.push(s.dim("…"));
  return shown;
}

/** `name: type, other?: type` of a tool's input schema. */
export function signature(schema: JsonSchema | undefined): string {
  const properties = schema?.properties ?? {};
  const required = new Set(schema?.required ?? []);
  return Object.entries(properties)
    .map(([name, prop]) => `${name}${required.has(name) ? "" : "?"}: ${typeName(prop)}`)
    .join(", ");
}

function parameterLines(schema: JsonSchema | undefined, s: Style): string[] {
  const lines: string[] = [];
  for (const [name, prop] of Object.entries(schema?.properties ?? {})) {
    const notes: string[] = [];
    if (prop.description) notes.push(String(prop.description).split("\n")[0]);
    if (prop.enum) notes.push(`one of: ${prop.enum.map((v) => JSON.stringify(v)).join(", ")}`);
    const described = typeof prop.description === "string" && /\bdefault\b/i.test(prop.description);
    if (prop.default !== undefined && !described) {
      notes.push(`default ${JSON.stringify(prop.default)}`);
    }
    if (notes.length > 0) lines.push(s.dim(v(`${name}: ${notes.join("; ")}`)));
  }
  return lines;
}

function typeName(schema: JsonSchema | undefined): string {
  if (!schema) return "any";
  if (Array.isArray(schema.type)) return schema.type.join("|");
  if (schema.type === "array") {
    const items = Array.isArray(schema.items) ? schema.items[0] : schema.items;
    return `${typeName(items)}[]`;
  }
  if (schema.type) return schema.type;
  if (schema.enum) return "enum";
  // A `$ref` is shown by the name it points to (`#/$defs/point` → `point`).
  if (typeof schema.$ref === "string") return schema.$ref.split("/").pop() || "any";
  const union = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (Array.isArray(union)) return union.map(typeName).join("|");
  return "any";
}

/** The server's instructions, cut to a few lines (all of them are in --format json). */
function instructionLines(text: string, s: Style): string[] {
  const lines = String(text).trim().split("\n").filter((line) => line.trim() !== "");
  const shown = lines.slice(0, 4).map((line) => `  ${v(line.trim())}`);
  if (lines.length > 4) {
    shown.push(s.dim(`  … ${lines.length - 4} more lines (--format json shows all)`));
  }
  return shown;
}
