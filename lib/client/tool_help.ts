/**
 * The help of one tool (lib/output/tool_help.ts's {@linkcode ToolHelp}):
 * live from a connection (`jn inspect SOURCE?tool=NAME`, `jn help
 * @profile/tool` when the profile saved no schema), or offline from a
 * profile's saved snapshot (`jn help @profile/tool`: no server started).
 *
 * A tool is named the way the source names it: a profile's tool name (which
 * may call another server tool: `@demo/items` calls `list_items`) or the
 * server's own. What the profile says about it (notes, examples,
 * `tested_with`, `output_format`, defaults) comes from the profile's display
 * form, so a `${VAR}` value is never shown.
 *
 * @module
 */

import { UsageError } from "../errors.ts";
import { toolSignature } from "../output/brief.ts";
import type { ProfileToolNotes, ToolHelp } from "../output/tool_help.ts";
import type { ProfileTool } from "../profile/types.ts";
import type { ToolInfo } from "../types.ts";
import { parseSource } from "../uri/parse.ts";
import { findTool, profileToolNames } from "./call.ts";
import type { Connection } from "./connection.ts";
import { type ResolveOptions, resolveTarget } from "./resolve.ts";

/**
 * The help of tool `name` (default: the tool the connection's source names)
 * from the live server.
 *
 * @example
 * ```ts ignore
 * import { open, toolHelp } from "@jn/jn";
 *
 * await using conn = await open("@demo/items", { cwd: Deno.cwd(), env: {} });
 * console.log((await toolHelp(conn)).signature); // items(count?: integer = 5, prefix?: string)
 * ```
 */
export async function toolHelp(conn: Connection, name?: string): Promise<ToolHelp> {
  const { target } = conn;
  // The name as the source gave it (a profile's tool name, before it was mapped to the server's).
  const operation = target.source.operation;
  const wanted = name ?? (operation.kind === "tool" ? operation.name : undefined);
  if (wanted === undefined) {
    throw new UsageError(`Name the tool to explain: ${target.name}?tool=NAME`);
  }
  const entry = target.profile?.tools.find((tool) => tool.name === wanted);
  const serverName = entry?.serverTool ?? wanted;
  try {
    const tool = findTool(await conn.session.listTools(), serverName, target.name, {
      aliases: profileToolNames(conn),
      leftOut: conn.session.leftOutTools?.(),
      profile: target.profile,
    });
    return buildToolHelp(target.name, tool, entry, "live");
  } catch (error) {
    throw conn.explain(error);
  }
}

/**
 * The help of the tool `ref` names (`@profile/tool`) from the profile's saved
 * snapshot (its `inputSchema`), without starting the server; undefined when
 * the profile saved no schema for it (then ask the live server:
 * {@linkcode toolHelp}). A project profile must be trusted, as for any use.
 */
export async function savedToolHelp(
  ref: string,
  options: ResolveOptions,
): Promise<ToolHelp | undefined> {
  const source = parseSource(ref);
  if (source.kind !== "profile" || source.operation.kind !== "tool") {
    throw new UsageError(`Expected a profile tool reference (@profile/tool), got "${ref}"`);
  }
  const profileName = source.operation.name;
  const target = await resolveTarget(source, options);
  const entry = target.profile?.tools.find((tool) => tool.name === profileName);
  const schema = entry?.display.inputSchema;
  if (!entry || !schema) return undefined;
  const tool: ToolInfo = {
    name: entry.serverTool,
    inputSchema: schema,
    ...(entry.display.outputSchema ? { outputSchema: entry.display.outputSchema } : {}),
  };
  return buildToolHelp(target.name, tool, entry, "profile");
}

/** The help of a tool as listed, with what its profile entry (if any) says. */
export function buildToolHelp(
  source: string,
  tool: ToolInfo,
  entry: ProfileTool | undefined,
  origin: ToolHelp["origin"],
): ToolHelp {
  const name = entry?.name ?? tool.name;
  const help: ToolHelp = {
    type: "tool_help",
    source,
    name,
    tool: tool.name,
    origin,
    signature: toolSignature({ ...tool, name }),
    inputSchema: tool.inputSchema,
  };
  if (tool.description) help.description = tool.description;
  if (tool.outputSchema) help.outputSchema = tool.outputSchema;
  const notes = entry && profileNotes(entry);
  if (notes) help.profile = notes;
  return help;
}

function profileNotes(entry: ProfileTool): ProfileToolNotes | undefined {
  const def = entry.display;
  const notes: ProfileToolNotes = {};
  if (typeof def.description === "string") notes.description = def.description;
  if (typeof def.output_format === "string") notes.output_format = def.output_format;
  if (def.notes !== undefined) notes.notes = def.notes;
  if (Array.isArray(def.examples)) notes.examples = def.examples;
  if (def.tested_with !== undefined) notes.tested_with = def.tested_with;
  if (def.defaults && Object.keys(def.defaults).length > 0) notes.defaults = def.defaults;
  return Object.keys(notes).length > 0 ? notes : undefined;
}
