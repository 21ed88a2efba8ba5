/**
 * What a server offers, gathered in one object: the structure of
 * `jn inspect --format json` (the seed's `{server, transport, tools,
 * resources, …}`), extended with templates, prompts and the handshake facts.
 *
 * @module
 */

import type { Session } from "../session/session.ts";
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

/** Lists everything a session's server offers (the four lists in parallel). */
export async function gatherInventory(
  session: Session,
  meta: { server: string; transport: Inventory["transport"] },
): Promise<Inventory> {
  const [tools, resources, resourceTemplates, prompts] = await Promise.all([
    session.listTools(),
    session.listResources(),
    session.listResourceTemplates(),
    session.listPrompts(),
  ]);
  return {
    server: meta.server,
    transport: meta.transport,
    protocolVersion: session.server.protocolVersion,
    serverInfo: { name: session.server.name, version: session.server.version },
    instructions: session.server.instructions,
    capabilities: session.server.capabilities,
    tools,
    resources,
    resource_templates: resourceTemplates,
    prompts,
  };
}
