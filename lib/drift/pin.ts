/**
 * Pinning, the rug-pull defence (docs/drift.md, "Pinning"): each server tool
 * compared with the profile's snapshot of it in everything a model reads, a
 * host shows or acts on, or a call depends on — its description, its input
 * schema, its output schema, its display fields (title, annotations, icons…).
 * Pure: lib/client/curate.ts decides what a host is offered from it.
 *
 * - input and output schema: {@linkcode sameSchema} (layout ignored, every
 *   keyword and every parameter's description counted); a schema the
 *   snapshot did not have (an output schema added) is a change;
 * - description: by its digest, `server_description_md5`, the MD5 of the
 *   server's text when the snapshot was taken (the seed's schema hash reads
 *   no description). A missing description reads as `""`. A snapshot
 *   without the digest (an older jn wrote it) compares the profile's text:
 *   equal is unchanged; different is `legacyDescription` — jn cannot tell an
 *   edit of yours from a server change, so the profile's text is what a host
 *   gets, and `jn profile update` records the digest. A snapshot with
 *   neither text nor digest recorded a tool without a description: one
 *   appearing is a change;
 * - display fields: by their digests, `server_display_md5`
 *   (lib/schema/display.ts): a field added, changed or removed is a change,
 *   named by the field. A snapshot without them (an older jn wrote it) is
 *   `legacyDisplay` when the tool has display fields now: jn cannot tell
 *   whether they changed, so a host gets the tool without them, and `jn
 *   profile update` records them.
 *
 * @module
 */

import { sameSchema } from "../schema/same.ts";
import { descriptionMd5 } from "../schema/hash.ts";
import { changedDisplayFields, displayFields } from "../schema/display.ts";
import { isPlainObject } from "../profile/fields.ts";
import type { Profile, ToolDef } from "../profile/types.ts";
import type { ToolInfo } from "../types.ts";
import { snapshotDef, toolsByServerTool } from "./expected.ts";

/**
 * What a snapshot pins of a tool: `description`, `input schema`, `output
 * schema`, or a display field by its name (`title`, `annotations`, …).
 */
export type PinnedPart = string;

/** One server tool against the profile's snapshot. */
export interface ToolPin {
  /**
   * `unchanged`: as the snapshot recorded it; `changed`: `parts` differ;
   * `new`: the server has it, the profile (which records every tool) does
   * not; `unpinned`: the server has it, no snapshot records it, and the
   * profile does not record every tool; `gone`: the profile names it, the
   * server no longer has it.
   */
  state: "unchanged" | "changed" | "new" | "unpinned" | "gone";
  /** What changed (state `changed`). */
  parts?: PinnedPart[];
  /** The snapshot predates `server_description_md5` and its text is not the server's now. */
  legacyDescription?: boolean;
  /** The snapshot predates `server_display_md5` and the tool has display fields now. */
  legacyDisplay?: boolean;
  /** The definition holding the snapshot, when there is one. */
  snapshot?: ToolDef;
}

/** A profile's snapshot against the live tools. */
export interface Pins {
  /**
   * Every server tool the profile names has a snapshot (what `profile
   * create --from` writes): a tool no snapshot knows is `new`.
   */
  complete: boolean;
  /** At least one server tool has a snapshot. */
  any: boolean;
  /** Per server tool name: every live tool and every tool the profile names. */
  tools: Map<string, ToolPin>;
}

/** Compares each of the server's tools with the profile's snapshot of it. */
export function pinTools(profile: Profile, live: readonly ToolInfo[]): Pins {
  const groups = toolsByServerTool(profile);
  const snapshots = new Map<string, ToolDef>();
  for (const [name, group] of groups) {
    const def = snapshotDef(group);
    if (def !== undefined) snapshots.set(name, def);
  }
  const complete = groups.size > 0 && snapshots.size === groups.size;
  const tools = new Map<string, ToolPin>();
  for (const tool of live) {
    if (tools.has(tool.name)) continue;
    const snapshot = snapshots.get(tool.name);
    if (snapshot === undefined) {
      tools.set(tool.name, { state: complete ? "new" : "unpinned" });
      continue;
    }
    tools.set(tool.name, compare(snapshot, tool));
  }
  for (const name of groups.keys()) {
    if (!tools.has(name)) tools.set(name, { state: "gone", snapshot: snapshots.get(name) });
  }
  return { complete, any: snapshots.size > 0, tools };
}

/** One tool against its snapshot. */
function compare(snapshot: ToolDef, tool: ToolInfo): ToolPin {
  const parts: PinnedPart[] = [];
  const description = descriptionState(snapshot, tool.description ?? "");
  if (description === "changed") parts.push("description");
  if (!sameSchema(snapshot.inputSchema, tool.inputSchema)) parts.push("input schema");
  if (!sameSchema(snapshot.outputSchema, tool.outputSchema)) parts.push("output schema");
  const recorded = snapshot.server_display_md5;
  const legacyDisplay = !isPlainObject(recorded) && Object.keys(displayFields(tool)).length > 0;
  if (isPlainObject(recorded)) parts.push(...changedDisplayFields(recorded, tool));
  return {
    state: parts.length > 0 ? "changed" : "unchanged",
    ...(parts.length > 0 ? { parts } : {}),
    ...(description === "legacy" ? { legacyDescription: true } : {}),
    ...(legacyDisplay ? { legacyDisplay: true } : {}),
    snapshot,
  };
}

/** The server's description now against the snapshot's digest (or, without one, its text). */
function descriptionState(snapshot: ToolDef, now: string): "same" | "changed" | "legacy" {
  const recorded = snapshot.server_description_md5;
  if (typeof recorded === "string") return descriptionMd5(now) === recorded ? "same" : "changed";
  if (typeof snapshot.description === "string") {
    return snapshot.description === now ? "same" : "legacy";
  }
  return now === "" ? "same" : "changed";
}
