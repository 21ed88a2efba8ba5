/**
 * jn's shared domain types: plain-JSON shapes of what an MCP server sends
 * (tools, results, prompts, …) and of what jn answers it. jn's own
 * structural types, so that nothing outside `lib/session/` depends on the MCP
 * SDK's types, and every layer (uri, args, profile, schema, client) can use
 * them without importing the session. Every field the server sent is kept
 * (index signatures), so records stay lossless. Types only.
 *
 * @module
 */

/** A JSON object as received. */
export type JsonObject = { [key: string]: unknown };

/** A JSON Schema object (only the parts jn reads are typed). */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema | JsonSchema[];
  enum?: unknown[];
  description?: string;
  default?: unknown;
  [key: string]: unknown;
}

/** A tool as listed by `tools/list`. */
export interface ToolInfo {
  name: string;
  description?: string;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  [key: string]: unknown;
}

/** A resource as listed by `resources/list`. */
export interface ResourceInfo {
  uri: string;
  name: string;
  mimeType?: string;
  [key: string]: unknown;
}

/** A resource template as listed by `resources/templates/list`. */
export interface ResourceTemplateInfo {
  uriTemplate: string;
  name: string;
  [key: string]: unknown;
}

/** A prompt as listed by `prompts/list`. */
export interface PromptInfo {
  name: string;
  description?: string;
  arguments?: { name: string; description?: string; required?: boolean }[];
  [key: string]: unknown;
}

/** One content item of a tool result or prompt message (`text`, `image`, `audio`, …). */
export interface ContentItem {
  type: string;
  [key: string]: unknown;
}

/** The result of `tools/call`. */
export interface ToolCallResult {
  content: ContentItem[];
  structuredContent?: JsonObject;
  isError?: boolean;
  [key: string]: unknown;
}

/** One item of a `resources/read` result. */
export interface ResourceContents {
  uri: string;
  mimeType?: string;
  text?: string;
  blob?: string;
  [key: string]: unknown;
}

/** The result of `prompts/get`. */
export interface PromptResult {
  description?: string;
  messages: { role: string; content: ContentItem }[];
  [key: string]: unknown;
}

/** What the server said about itself when the session opened. */
export interface ServerIdentity {
  name?: string;
  version?: string;
  /** The negotiated protocol revision, e.g. `2025-11-25` or `2026-07-28`. */
  protocolVersion?: string;
  /** `legacy` for 2025 revisions, `modern` for 2026-07-28 and later. */
  era?: "legacy" | "modern";
  capabilities: JsonObject;
  instructions?: string;
}

/** A progress notification of a request in flight. */
export interface ProgressUpdate {
  progress: number;
  total?: number;
  message?: string;
}

/** A `notifications/message` log entry from the server. */
export interface LogEntry {
  level: string;
  logger?: string;
  data: unknown;
}

/** A server's request for input from the user (`elicitation/create`). */
export interface ElicitationRequest {
  /** `form`: fill `requestedSchema`; `url`: visit `url` (out of band). */
  mode: "form" | "url";
  message: string;
  /** The fields asked for (flat object schema of primitives), form mode. */
  requestedSchema?: JsonSchema;
  /** The page to open, URL mode. */
  url?: string;
  elicitationId?: string;
}

/** The user's answer to an elicitation. */
export interface ElicitationResponse {
  action: "accept" | "decline" | "cancel";
  content?: Record<string, string | number | boolean | string[]>;
}

/** A root the client exposes to the server (`roots/list`). */
export interface RootInfo {
  /** A `file://` URI. */
  uri: string;
  name?: string;
}
