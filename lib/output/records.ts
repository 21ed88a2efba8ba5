/**
 * lib/output: the records of SPEC §3, text for people, control characters made
 * visible, secrets redacted, colours.
 *
 * The NDJSON records jn writes (SPEC §3), built from what a session returned.
 * Lossless: every field of an MCP content item is kept beside jn's own
 * `type`/`tool`/`content_type`; binary stays base64; annotations stay.
 *
 * @module
 */

import type {
  CompletionRef,
  CompletionResult,
  ContentItem,
  PromptInfo,
  PromptResult,
  ResourceContents,
  ResourceInfo,
  ResourceTemplateInfo,
  ToolCallResult,
  ToolInfo,
} from "../types.ts";

/** One output record: a JSON object with a `type`, or (with `--json`) any JSON payload value. */
export type JnRecord = { type: string; [key: string]: unknown };

/** Options of {@linkcode toolResultRecords}. */
export interface ToolRecordOptions {
  /** Emit the payload instead of the envelope (`--json`). */
  json?: boolean;
}

/**
 * Records of one `tools/call` result: one `tool_result` per content item, in
 * order, then one `structured_result` when there is structured content. With
 * `json`, the payload: structured content when present, otherwise each text
 * item parsed as JSON (an array gives one record per element, an object one
 * record); text that is not JSON, and non-text items, stay `tool_result`s.
 */
export function toolResultRecords(
  tool: string,
  result: ToolCallResult,
  options: ToolRecordOptions = {},
): unknown[] {
  const isError = result.isError === true;
  const content = Array.isArray(result.content) ? result.content : [];
  if (options.json && !isError) {
    if (result.structuredContent !== undefined) return explode(result.structuredContent);
    return content.flatMap((item) => {
      const payload = item.type === "text" ? parseJson(item.text) : undefined;
      return payload === undefined ? [contentRecord(tool, item, false)] : explode(payload.value);
    });
  }
  const records: unknown[] = content.map((item) => contentRecord(tool, item, isError));
  if (result.structuredContent !== undefined) {
    const record: JnRecord = { type: "structured_result", tool, data: result.structuredContent };
    if (isError) record.isError = true;
    records.push(record);
  }
  return records;
}

function contentRecord(tool: string, item: ContentItem, isError: boolean): JnRecord {
  const { type, ...fields } = item;
  // A text item's own fields only: jn does not invent a mimeType the server did not send.
  const record: JnRecord = { type: "tool_result", tool, content_type: type, ...fields };
  if (isError) record.isError = true;
  return record;
}

function parseJson(text: unknown): { value: unknown } | undefined {
  if (typeof text !== "string") return undefined;
  const start = text.trimStart()[0];
  if (start !== "{" && start !== "[") return undefined;
  try {
    return { value: JSON.parse(text) };
  } catch {
    return undefined;
  }
}

function explode(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [value];
}

/** `{"type":"tool",…}` records of a tool list. */
export function toolRecords(tools: ToolInfo[]): JnRecord[] {
  return tools.map((tool) => ({ type: "tool", ...tool }));
}

/** `{"type":"resource",…}` records of a resource list. */
export function resourceRecords(resources: ResourceInfo[]): JnRecord[] {
  return resources.map((resource) => ({ type: "resource", ...resource }));
}

/** `{"type":"resource_template",…}` records of a resource template list. */
export function resourceTemplateRecords(templates: ResourceTemplateInfo[]): JnRecord[] {
  return templates.map((template) => ({ type: "resource_template", ...template }));
}

/** `{"type":"prompt",…}` records of a prompt list. */
export function promptRecords(prompts: PromptInfo[]): JnRecord[] {
  return prompts.map((prompt) => ({ type: "prompt", ...prompt }));
}

/**
 * `{"type":"resource_content",…}` records of a `resources/read` result. With
 * `json` (as for tools), the payload of JSON text: an item whose `mimeType`
 * is JSON (`application/json`, `…+json`), or that has none and holds a JSON
 * object or array, gives its parsed value (an array one record per element);
 * any other item stays a `resource_content` record.
 */
export function resourceContentRecords(contents: ResourceContents[]): JnRecord[];
/** With `options.json`, payload values too (any JSON value). */
export function resourceContentRecords(
  contents: ResourceContents[],
  options: ToolRecordOptions,
): unknown[];
export function resourceContentRecords(
  contents: ResourceContents[],
  options: ToolRecordOptions = {},
): unknown[] {
  return contents.flatMap((item) => {
    const payload = options.json ? jsonPayload(item) : undefined;
    return payload === undefined ? [{ type: "resource_content", ...item }] : explode(payload.value);
  });
}

function jsonPayload(item: ResourceContents): { value: unknown } | undefined {
  if (typeof item.text !== "string") return undefined;
  const mime = typeof item.mimeType === "string" ? item.mimeType : undefined;
  if (mime === undefined) return parseJson(item.text);
  const essence = mime.split(";")[0].trim().toLowerCase();
  if (essence !== "application/json" && !essence.endsWith("+json")) return undefined;
  try {
    return { value: JSON.parse(item.text) };
  } catch {
    return undefined;
  }
}

/** `{"type":"prompt_message",…}` records of a `prompts/get` result. */
export function promptMessageRecords(prompt: string, result: PromptResult): JnRecord[] {
  return (result.messages ?? []).map((message) => {
    const { type, ...fields } = message.content ?? { type: "text" };
    return { type: "prompt_message", prompt, role: message.role, content_type: type, ...fields };
  });
}

/**
 * `{"type":"completion",…}` records of a `completion/complete` result, one per
 * value, in the server's order: `prompt` or `resource` (the template), the
 * `argument` completed, and the `value`.
 */
export function completionRecords(
  ref: CompletionRef,
  argument: string,
  result: CompletionResult,
): JnRecord[] {
  const where = ref.type === "ref/prompt" ? { prompt: ref.name } : { resource: ref.uri };
  return result.values.map((value) => ({ type: "completion", ...where, argument, value }));
}
