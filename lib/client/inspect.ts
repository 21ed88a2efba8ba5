/**
 * What a server offers, gathered in one object (lib/output/inventory.ts):
 * the four lists in parallel and the handshake facts. A server may echo a
 * profile's substituted values (an API key) in its descriptions: the
 * inventory comes back redacted. The tools are those the profile's
 * `allow_tools`/`deny_tools` let callers use (lib/profile/tool_filter.ts).
 *
 * Each list stands on its own: many servers advertise `resources` but answer
 * `resources/templates/list` with -32601, or fail `resources/list` while a
 * backing service is down. A failed list is empty in the inventory and named
 * in its `errors`; only when every list the server offers failed (or the run
 * was interrupted) is there no inventory, just the error.
 *
 * @module
 */

import { InterruptedError, type JnError } from "../errors.ts";
import type { Inventory, InventorySection } from "../output/inventory.ts";
import { redact, redactDeep } from "../output/redact.ts";
import { profileFilter } from "../profile/tool_filter.ts";
import type { ToolInfo } from "../types.ts";
import type { Connection } from "./connection.ts";
import { serverName } from "./resolve.ts";

/** What {@linkcode inspectSections} gathered, and the error of each list that failed. */
export interface InspectReport {
  /** The inventory; a failed list is empty and named in `errors`. */
  inventory: Inventory;
  /** The error of each failed list (explained and redacted, ready to throw). */
  failures: Partial<Record<InventorySection, JnError>>;
}

/** The sections in the order they are listed (and the first failure is reported). */
const SECTIONS: readonly InventorySection[] = [
  "tools",
  "resources",
  "resource_templates",
  "prompts",
];

/**
 * Lists everything the server of `conn` offers. A list that fails is left
 * empty and its error is in `inventory.errors` (`{"resources": "…"}`); it
 * throws only when every list failed, or when interrupted.
 *
 * @example
 * ```ts
 * import { inspect, open } from "@jn/jn";
 *
 * await using conn = await open("@demo", { cwd: Deno.cwd(), env: Deno.env.toObject() });
 * const inventory = await inspect(conn);
 * console.log(inventory.tools.map((tool) => tool.name)); // ["add", "echo", …]
 * console.log(inventory.errors ?? "every list answered");
 * ```
 */
export async function inspect(conn: Connection): Promise<Inventory> {
  return (await inspectSections(conn)).inventory;
}

/**
 * {@linkcode inspect}, with the error of each failed list as an error (for a
 * caller that decides what a failed list means: the CLI exits 5 when the
 * tools could not be listed).
 */
export async function inspectSections(conn: Connection): Promise<InspectReport> {
  const { session, target } = conn;
  const capabilities = session.server.capabilities;
  const settled = await Promise.allSettled([
    session.listTools(),
    session.listResources(),
    session.listResourceTemplates(),
    session.listPrompts(),
  ]);
  const failures: Partial<Record<InventorySection, JnError>> = {};
  for (const [index, outcome] of settled.entries()) {
    if (outcome.status === "fulfilled") continue;
    const error = conn.explain(outcome.reason);
    if (error instanceof InterruptedError) throw error;
    failures[SECTIONS[index]] = error;
  }
  const offered = SECTIONS.filter((section) =>
    capabilities[section === "resource_templates" ? "resources" : section]
  );
  const failed = SECTIONS.filter((section) => failures[section] !== undefined);
  if (failed.length > 0 && failed.length >= offered.length) throw failures[failed[0]];
  const { allows } = profileFilter(target.profile);
  const list = <T>(index: number): T[] => {
    const outcome = settled[index];
    return outcome.status === "fulfilled" ? outcome.value as T[] : [];
  };
  const inventory: Inventory = {
    server: serverName(target),
    transport: target.launch.transport,
    protocolVersion: session.server.protocolVersion,
    serverInfo: { name: session.server.name, version: session.server.version },
    instructions: session.server.instructions,
    capabilities,
    clientCapabilities: session.clientCapabilities,
    tools: list<ToolInfo>(0).filter((tool) => allows(tool.name)),
    resources: list(1),
    resource_templates: list(2),
    prompts: list(3),
  };
  if (failed.length > 0) {
    inventory.errors = Object.fromEntries(
      failed.map((section) => [section, redact(failures[section]!.message, conn.secrets)]),
    );
  }
  return { inventory: redactDeep(inventory, conn.secrets), failures };
}
