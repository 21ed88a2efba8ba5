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
  /** A naked URI's location, or a profile's name (the seed's `server` field). */
  server: string;
  /** How the server is reached. */
  transport: "stdio" | "http" | "sse";
  /** The negotiated protocol revision. */
  protocolVersion?: string;
  /** What the server said about itself. */
  serverInfo: { name?: string; version?: string };
  /** How to use the server, in its own words. */
  instructions?: string;
  /** What the server offers, as it declared it. */
  capabilities: JsonObject;
  /** Its tools. */
  tools: ToolInfo[];
  /** Its resources. */
  resources: ResourceInfo[];
  /** Its resource templates. */
  resource_templates: ResourceTemplateInfo[];
  /** Its prompts. */
  prompts: PromptInfo[];
}
