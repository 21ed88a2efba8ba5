/**
 * The tools a host is offered through a connection — the policy `jn serve`
 * applies — in one call: {@linkcode curateTools}.
 *
 * Interface note (for lib/serve): call `curateTools(conn, await
 * liveTools(conn))` (lib/client/verbs.ts; never the curated `list()`) once
 * the connection is open, and again on every `notifications/tools/list_changed`
 * from the server; answer the host's `tools/list` with `offered`, tell the
 * host (stderr, `notifications/message`) about each of `withheld` (its text
 * is server data: make it visible before a terminal sees it) and print
 * `notes` once on stderr; on the host's `tools/call`, `check(name, args)`
 * gives the server tool and the arguments to send, or throws the error to
 * answer with (a DriftError for a withheld tool, a UsageError for a name not
 * offered or an argument the profile fixes). Everything returned is
 * redacted (the connection's secrets). `options.ignoreSchema` is the user's
 * `--ignore-schema`: the connection's own option is not read, so serve may
 * open it quietly without turning pinning off.
 *
 * What is offered:
 *
 * - **Curation** (every verb, lib/profile/tool_filter.ts): a name that
 *   `allow_tools`/`deny_tools` refuse is not offered, not withheld: it does
 *   not exist for the host.
 * - **The profile's tools**: a tool file (or inline entry) is offered under
 *   its own name, with its `description` (else the server's), the server
 *   tool's schemas, and its `defaults` filled in and taken out of the
 *   `inputSchema` (`properties` and `required`), so the host cannot change
 *   them (`check` refuses one it sends). One named like a server tool
 *   replaces that tool; another name is offered beside it.
 * - **Pinning** (lib/drift/pin.ts): with a snapshot, a tool whose
 *   description, input or output schema or display fields (title,
 *   annotations, icons…) changed since it is withheld (a snapshot older
 *   than display digests: the tool is offered without them), and
 *   so is a tool the profile does not know (when it records every tool),
 *   until `jn profile update` records it; `schema_validation: "ignore"` (or
 *   `ignoreSchema`) turns pinning off. A tool the profile names that the
 *   server no longer has is withheld whatever the mode.
 *
 * @module
 */

import { DriftError, UsageError } from "../errors.ts";
import { pinTools } from "../drift/pin.ts";
import { displayFields } from "../schema/display.ts";
import { goneTool, pinFix, pinNotes, withheldReason } from "../drift/pin_text.ts";
import { redact, redactDeep } from "../output/redact.ts";
import { visibleLine } from "../output/visible.ts";
import { profileFilter } from "../profile/tool_filter.ts";
import type { ProfileTool } from "../profile/types.ts";
import type { JsonObject, JsonSchema, ToolInfo } from "../types.ts";
import { toolNotFound } from "./call.ts";
import type { Connection } from "./connection.ts";
import type { ToolOffer, WithheldTool } from "../serve/types.ts";

export type { WithheldTool };

/** Options of {@linkcode curateTools}. */
export interface CurateOptions {
  /** Serve without pinning (the user's `--ignore-schema`). */
  ignoreSchema?: boolean;
}

/** Where a call of an offered tool goes. */
export interface ToolRoute {
  /** The server's tool. */
  serverTool: string;
  /** Arguments the profile fixes (sent whatever the host says: `check` refuses them). */
  defaults: Record<string, unknown>;
}

/** What a host gets of a connection's tools. */
export interface Curation {
  /** The tools to list, as the host should see them. */
  offered: ToolInfo[];
  /** The tools held back, each with its reason and fix. */
  withheld: WithheldTool[];
  /**
   * `all`: the profile pins every tool; `some`: only those with a snapshot
   * (`notes` names the others); `off`: pinning turned off; `none`: nothing
   * to pin with (a naked URI, a profile without snapshots).
   */
  pinning: "all" | "some" | "off" | "none";
  /** One line each, for stderr at start: what is not pinned, and why. */
  notes: string[];
  /** The route of an offered tool, or undefined. */
  route(name: string): ToolRoute | undefined;
  /**
   * The check of a host's `tools/call`: the server tool and the arguments
   * to send (the host's plus the fixed ones), or a DriftError (withheld) /
   * UsageError (not offered, with a did-you-mean; a fixed argument given).
   */
  check(name: string, args?: Record<string, unknown>): {
    serverTool: string;
    arguments: Record<string, unknown>;
  };
}

/**
 * Curates the live tools of a connection for a host (see the module's doc).
 *
 * @example
 * ```ts
 * import { curateTools, liveTools, open } from "@jn/jn";
 *
 * await using conn = await open("@demo", { cwd: Deno.cwd(), env: Deno.env.toObject() });
 * const curation = curateTools(conn, await liveTools(conn));
 * console.log(curation.offered.map((tool) => tool.name)); // […, "items", …]
 * console.log(curation.check("items", {})); // { serverTool: "list_items", arguments: {…} }
 * ```
 */
export function curateTools(
  conn: Connection,
  live: readonly ToolInfo[],
  options: CurateOptions = {},
): Curation {
  const { profile, name: server } = conn.target;
  const { allows } = profileFilter(profile);
  const pinOn = profile !== undefined && !options.ignoreSchema &&
    profile.meta.schema_validation !== "ignore";
  const pins = profile === undefined ? undefined : pinTools(profile, live);
  const liveByName = new Map<string, ToolInfo>();
  for (const tool of live) if (!liveByName.has(tool.name)) liveByName.set(tool.name, tool);
  // Every name a host could see: the server's, then the profile's (which win over the same name).
  const entries = new Map<string, ProfileTool | undefined>();
  for (const name of liveByName.keys()) entries.set(name, undefined);
  for (const tool of profile?.tools ?? []) entries.set(tool.name, tool);

  const offered: ToolInfo[] = [];
  const withheld: WithheldTool[] = [];
  const routes = new Map<string, ToolRoute>();
  const unpinned: string[] = [];
  const legacy: string[] = [];
  const legacyDisplay: string[] = [];
  for (const [name, tool] of entries) {
    if (!allows(name)) continue;
    const serverTool = tool?.serverTool ?? name;
    const info = liveByName.get(serverTool);
    if (info === undefined) {
      withheld.push({ name, ...goneTool(serverTool, server) });
      continue;
    }
    const pin = pinOn ? pins?.tools.get(serverTool) : undefined;
    const reason = pin && withheldReason(pin);
    if (reason !== undefined) {
      withheld.push({ name, reason, fix: pinFix(server) });
      continue;
    }
    if (pin?.state === "unpinned") unpinned.push(name);
    if (pin?.legacyDescription) legacy.push(name);
    if (pin?.legacyDisplay) legacyDisplay.push(name);
    const defaults = { ...tool?.def.defaults };
    const text = tool?.def.description ??
      (pin?.legacyDescription ? pin.snapshot?.description : undefined) ?? info.description;
    // Display fields no digest pins never reach the host (their snapshot predates the digests).
    const shown = pin?.legacyDisplay ? withoutDisplay(info) : info;
    offered.push(offeredTool(name, shown, text, Object.keys(defaults)));
    routes.set(name, { serverTool, defaults });
  }
  const notes = pinNotes(server, {
    profile: profile !== undefined,
    source: conn.target.source.raw,
    pinOn,
    ignoreSchema: options.ignoreSchema,
    any: pins?.any ?? false,
    unpinned,
    legacy,
    legacyDisplay,
  });
  const safeWithheld = redactDeep(withheld, conn.secrets);
  return {
    offered: redactDeep(offered, conn.secrets),
    withheld: safeWithheld,
    pinning: !pinOn
      ? (profile === undefined ? "none" : "off")
      : pins?.complete
      ? "all"
      : pins?.any
      ? "some"
      : "none",
    // One line each: a tool name with a newline must not start a line of its own.
    notes: notes.map((note) => visibleLine(redact(note, conn.secrets))),
    route: (name) => routes.get(name),
    check(name, args = {}) {
      const route = routes.get(name);
      if (route === undefined) {
        const held = safeWithheld.find((w) => w.name === name);
        if (held !== undefined) {
          throw new DriftError(`Tool "${name}" of ${server} is withheld: ${held.reason}`, {
            hint: held.fix,
          });
        }
        return toolNotFound(offered, name, server, {});
      }
      const fixed = Object.keys(args).filter((key) => Object.hasOwn(route.defaults, key));
      if (fixed.length > 0) {
        throw new UsageError(
          `Argument "${fixed[0]}" of tool "${name}" is fixed by ${server}: its profile gives it`,
          { hint: `call "${name}" without ${fixed.map((k) => `"${k}"`).join(", ")}` },
        );
      }
      return { serverTool: route.serverTool, arguments: { ...args, ...route.defaults } };
    },
  };
}

/** A live tool as offered under `name`: its description, its fixed arguments taken out. */
function offeredTool(
  name: string,
  info: ToolInfo,
  description: string | undefined,
  fixed: readonly string[],
): ToolInfo {
  const { description: _description, title, ...rest } = info;
  return {
    ...rest,
    name,
    // Another name is another tool: the server tool's title would misname it.
    ...(title !== undefined && name === info.name ? { title } : {}),
    ...(description === undefined ? {} : { description }),
    inputSchema: withoutArguments(info.inputSchema, fixed),
  };
}

/** A live tool without its display fields (title, annotations, icons…: lib/schema/display.ts). */
function withoutDisplay(info: ToolInfo): ToolInfo {
  const shown = displayFields(info);
  return Object.fromEntries(
    Object.entries(info).filter(([key]) => !Object.hasOwn(shown, key)),
  ) as ToolInfo;
}

/** `schema` without the top-level parameters `names` (from `properties` and `required`). */
export function withoutArguments(schema: JsonSchema, names: readonly string[]): JsonSchema {
  if (names.length === 0) return schema;
  const out: JsonSchema = { ...schema };
  const properties = schema.properties;
  if (typeof properties === "object" && properties !== null && !Array.isArray(properties)) {
    out.properties = Object.fromEntries(
      Object.entries(properties).filter(([key]) => !names.includes(key)),
    );
  }
  if (Array.isArray(schema.required)) {
    out.required = schema.required.filter((key) => !names.includes(key as string));
  }
  return out;
}

/**
 * The tool filter `serve` applies by default: {@linkcode curateTools} as
 * what a host is offered (a profile's aliases with their fixed arguments,
 * withheld tools with their reason and fix, and the notes to say once).
 */
export function curatedOffer(
  options: CurateOptions = {},
): (conn: Connection, live: ToolInfo[]) => ToolOffer {
  return (conn, live) => {
    const curation = curateTools(conn, live, options);
    const aliases: NonNullable<ToolOffer["aliases"]> = {};
    for (const tool of curation.offered) {
      const route = curation.route(tool.name);
      if (!route) continue;
      const fixed = Object.keys(route.defaults).length > 0;
      if (route.serverTool !== tool.name || fixed) {
        aliases[tool.name] = {
          tool: route.serverTool,
          ...(fixed ? { defaults: route.defaults as JsonObject } : {}),
        };
      }
    }
    return {
      offered: curation.offered,
      withheld: curation.withheld,
      aliases,
      notes: curation.notes,
    };
  };
}
