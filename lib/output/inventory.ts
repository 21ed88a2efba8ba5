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

/** The lists of an inventory, each listed (and failing) on its own. */
export type InventorySection = "tools" | "resources" | "resource_templates" | "prompts";

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
  /**
   * What jn offered the server (sampling, elicitation, roots, …): a server may
   * hide tools from a client that lacks what they need.
   */
  clientCapabilities?: JsonObject;
  /** Its tools. */
  tools: ToolInfo[];
  /** Its resources. */
  resources: ResourceInfo[];
  /** Its resource templates. */
  resource_templates: ResourceTemplateInfo[];
  /** Its prompts. */
  prompts: PromptInfo[];
  /**
   * The lists the server failed to give, each with jn's one-line error
   * (`{"resource_templates": "The server answered resources/templates/list
   * with error -32601: Method not found"}`); absent when every list answered.
   * A failed list is empty above.
   */
  errors?: Partial<Record<InventorySection, string>>;
}
