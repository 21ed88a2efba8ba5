/**
 * What a server offers, gathered in one object (lib/output/inventory.ts):
 * the four lists in parallel and the handshake facts. A server may echo a
 * profile's substituted values (an API key) in its descriptions: the
 * inventory comes back redacted.
 *
 * @module
 */

import type { Inventory } from "../output/inventory.ts";
import { redactDeep } from "../output/redact.ts";
import type { Connection } from "./connection.ts";
import { serverName } from "./resolve.ts";

/**
 * Lists everything the server of `conn` offers.
 *
 * @example
 * ```ts
 * import { inspect, open } from "@jn/jn";
 *
 * await using conn = await open("@demo", { cwd: Deno.cwd(), env: Deno.env.toObject() });
 * const inventory = await inspect(conn);
 * console.log(inventory.tools.map((tool) => tool.name)); // ["add", "echo", …]
 * ```
 */
export async function inspect(conn: Connection): Promise<Inventory> {
  const { session, target } = conn;
  try {
    const [tools, resources, resourceTemplates, prompts] = await Promise.all([
      session.listTools(),
      session.listResources(),
      session.listResourceTemplates(),
      session.listPrompts(),
    ]);
    const inventory: Inventory = {
      server: serverName(target),
      transport: target.launch.transport,
      protocolVersion: session.server.protocolVersion,
      serverInfo: { name: session.server.name, version: session.server.version },
      instructions: session.server.instructions,
      capabilities: session.server.capabilities,
      tools,
      resources,
      resource_templates: resourceTemplates,
      prompts,
    };
    return redactDeep(inventory, conn.secrets);
  } catch (error) {
    throw conn.explain(error);
  }
}
