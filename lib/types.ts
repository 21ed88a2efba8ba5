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
  /** The JSON type(s) a value must have. */
  type?: string | string[];
  /** The schemas of an object's properties. */
  properties?: Record<string, JsonSchema>;
  /** The properties an object must have. */
  required?: string[];
  /** The schema of an array's items (a list: a tuple, per position). */
  items?: JsonSchema | JsonSchema[];
  /** The allowed values. */
  enum?: unknown[];
  /** What the value means. */
  description?: string;
  /** The value assumed when none is given. */
  default?: unknown;
  /** Every other keyword, as the server wrote it. */
  [key: string]: unknown;
}

/** A tool as listed by `tools/list`. */
export interface ToolInfo {
  /** The name to call it by. */
  name: string;
  /** What it does. */
  description?: string;
  /** The schema of its arguments. */
  inputSchema: JsonSchema;
  /** The schema of its structured result, when it declares one. */
  outputSchema?: JsonSchema;
  /** Every other field the server sent (`title`, `annotations`, …). */
  [key: string]: unknown;
}

/** A resource as listed by `resources/list`. */
export interface ResourceInfo {
  /** The URI to read it by. */
  uri: string;
  /** Its name. */
  name: string;
  /** Its media type, when known. */
  mimeType?: string;
  /** Every other field the server sent. */
  [key: string]: unknown;
}

/** A resource template as listed by `resources/templates/list`. */
export interface ResourceTemplateInfo {
  /** The RFC 6570 template of the URIs it stands for. */
  uriTemplate: string;
  /** Its name. */
  name: string;
  /** Every other field the server sent. */
  [key: string]: unknown;
}

/** A prompt as listed by `prompts/list`. */
export interface PromptInfo {
  /** The name to get it by. */
  name: string;
  /** What it is for. */
  description?: string;
  /** Its arguments (all strings). */
  arguments?: { name: string; description?: string; required?: boolean }[];
  /** Every other field the server sent. */
  [key: string]: unknown;
}

/** One content item of a tool result or prompt message (`text`, `image`, `audio`, …). */
export interface ContentItem {
  /** `text`, `image`, `audio`, `resource_link`, `resource`, … */
  type: string;
  /** The item's fields (`text`, `data`, `mimeType`, `annotations`, …). */
  [key: string]: unknown;
}

/** The result of `tools/call`. */
export interface ToolCallResult {
  /** The content items, in order. */
  content: ContentItem[];
  /** The structured result, when the tool gives one. */
  structuredContent?: JsonObject;
  /** The tool answered with an error (a result, not an exception). */
  isError?: boolean;
  /** Every other field the server sent. */
  [key: string]: unknown;
}

/** One item of a `resources/read` result. */
export interface ResourceContents {
  /** The resource's URI. */
  uri: string;
  /** Its media type. */
  mimeType?: string;
  /** Its text, for a text resource. */
  text?: string;
  /** Its bytes in base64, for a binary resource. */
  blob?: string;
  /** Every other field the server sent. */
  [key: string]: unknown;
}

/** The result of `prompts/get`. */
export interface PromptResult {
  /** What the prompt is for. */
  description?: string;
  /** The messages, in order. */
  messages: { role: string; content: ContentItem }[];
  /** Every other field the server sent. */
  [key: string]: unknown;
}

/** What the server said about itself when the session opened. */
export interface ServerIdentity {
  /** Its name (`serverInfo.name`). */
  name?: string;
  /** Its version (`serverInfo.version`). */
  version?: string;
  /** The negotiated protocol revision, e.g. `2025-11-25` or `2026-07-28`. */
  protocolVersion?: string;
  /** `legacy` for 2025 revisions, `modern` for 2026-07-28 and later. */
  era?: "legacy" | "modern";
  /** What it offers (`tools`, `resources`, `prompts`, `logging`, …). */
  capabilities: JsonObject;
  /** How to use it, in its own words. */
  instructions?: string;
}

/** Where a task stands (2025-11-25 tasks). */
export type TaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";

/** A task: a request the server runs in the background, polled by its id (2025-11-25 tasks). */
export interface TaskInfo {
  /** The id to poll, fetch and cancel it by. */
  taskId: string;
  /** Where it stands; `completed`, `failed` and `cancelled` are final. */
  status: TaskStatus;
  /** What it is doing, in the server's words. */
  statusMessage?: string;
  /** How often the server suggests polling it (ms). */
  pollInterval?: number;
  /** How long the server keeps it after creation (ms); null: no limit. */
  ttl?: number | null;
  /** Every other field the server sent (`createdAt`, `lastUpdatedAt`, …). */
  [key: string]: unknown;
}

/** A progress notification of a request in flight. */
export interface ProgressUpdate {
  /** How far it is. */
  progress: number;
  /** Where it will end, when known. */
  total?: number;
  /** What it is doing. */
  message?: string;
}

/** A `notifications/message` log entry from the server. */
export interface LogEntry {
  /** The RFC 5424 level: `debug` … `emergency`. */
  level: string;
  /** Which part of the server logged it. */
  logger?: string;
  /** The message: text or any JSON value. */
  data: unknown;
}

/** A server's request for input from the user (`elicitation/create`). */
export interface ElicitationRequest {
  /** `form`: fill `requestedSchema`; `url`: visit `url` (out of band). */
  mode: "form" | "url";
  /** What the server asks, in its words. */
  message: string;
  /** The fields asked for (flat object schema of primitives), form mode. */
  requestedSchema?: JsonSchema;
  /** The page to open, URL mode. */
  url?: string;
  /** The server's id of a URL-mode request. */
  elicitationId?: string;
  /**
   * URL mode, from a refused request (JSON-RPC error -32042, URL elicitation
   * required): `accept` means the user opened the URL and the request is
   * retried once; otherwise the request fails with an error naming the URL.
   */
  retry?: boolean;
}

/** The user's answer to an elicitation. */
export interface ElicitationResponse {
  /** `accept` (with `content`), `decline`, or `cancel` (the user gave no answer). */
  action: "accept" | "decline" | "cancel";
  /** The answers, form mode. */
  content?: Record<string, string | number | boolean | string[]>;
}

/**
 * A server's request for an LLM completion (`sampling/createMessage`), as it
 * sent it: `messages`, `systemPrompt`, `maxTokens`, `modelPreferences`, ….
 */
export interface SamplingRequest {
  /** The conversation so far: `{role, content}` items. */
  messages: { role: string; content: unknown }[];
  /** The most tokens the server wants back. */
  maxTokens?: number;
  /** The system prompt the server asks for. */
  systemPrompt?: string;
  /** Every other field the server sent. */
  [key: string]: unknown;
}

/** The answer to a sampling request (`CreateMessageResult`). */
export interface SamplingResponse {
  /** Always `assistant`. */
  role: "assistant";
  /** The generated content (text: `{type: "text", text}`). */
  content: ContentItem;
  /** The model that produced it. */
  model: string;
  /** Why generation stopped (`endTurn`, `maxTokens`, …). */
  stopReason?: string;
}

/** What `completion/complete` completes: a prompt's argument or a resource template's variable. */
export type CompletionRef =
  | { type: "ref/prompt"; name: string }
  | { type: "ref/resource"; uri: string };

/** The answer of `completion/complete`. */
export interface CompletionResult {
  /** The values, best first (at most 100). */
  values: string[];
  /** How many values there are in all, when the server knows. */
  total?: number;
  /** Whether there are more values than these. */
  hasMore?: boolean;
}

/** A root the client exposes to the server (`roots/list`). */
export interface RootInfo {
  /** A `file://` URI. */
  uri: string;
  /** A short name for it. */
  name?: string;
}
