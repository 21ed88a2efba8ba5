/**
 * What a server offers, in one object: the structure of `jn inspect
 * --format json` (the seed's `{server, transport, tools, resources, …}`),
 * extended with templates, prompts and the handshake facts. Gathered by
 * lib/client/inspect.ts; shown as text by human.ts. Types only.
 *
 * @module
 */

import type {
  JsonObject,
  PromptInfo,
  ResourceInfo,
  ResourceTemplateInfo,
  ToolInfo,
} from "../types.ts";

/** Everything `inspect` reports. */
export interface Inventory {
  server: string;
  transport: "stdio" | "http" | "sse";
  protocolVersion?: string;
  serverInfo: { name?: string; version?: string };
  instructions?: string;
  capabilities: JsonObject;
  tools: ToolInfo[];
  resources: ResourceInfo[];
  resource_templates: ResourceTemplateInfo[];
  prompts: PromptInfo[];
}
