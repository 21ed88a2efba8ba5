/**
 * What a profile expects of its server, in the form the schema diff takes:
 * one entry per server tool (several profile tools may call the same one),
 * with the `inputSchema` snapshot (else the seed's `parameters`) and the
 * `outputSchema` snapshot recorded with it, the server's description when
 * it was recorded with a snapshot (the text while it still hashes to
 * `server_description_md5`; once the user edited it, only that MD5; `""`
 * when the snapshot recorded neither: the tool had no description), the
 * digests of its display fields (`server_display_md5`; a snapshot without
 * them says so), the `output_format`; and the parameters the profile uses in `defaults`,
 * `examples` and `tested_with` (removing one of those is breaking).
 *
 * @module
 */

import type { ExpectedTool } from "../schema/diff.ts";
import { descriptionMd5 } from "../schema/hash.ts";
import { isPlainObject } from "../profile/fields.ts";
import type { Profile, ProfileTool, ToolDef } from "../profile/types.ts";

/** The diff's view of a profile. */
export interface Expectations {
  tools: ExpectedTool[];
  /** Per server tool, the parameter paths the profile uses. */
  usedParams: Record<string, string[]>;
  /** Whether the profile recorded every tool the server had (all with snapshots). */
  complete: boolean;
}

/**
 * A profile's tools by the server tool they call, the one named like it
 * first (it speaks for the server tool).
 */
export function toolsByServerTool(profile: Profile): Map<string, ProfileTool[]> {
  const groups = new Map<string, ProfileTool[]>();
  for (const tool of profile.tools) {
    const list = groups.get(tool.serverTool) ?? [];
    if (tool.name === tool.serverTool) list.unshift(tool);
    else list.push(tool);
    groups.set(tool.serverTool, list);
  }
  return groups;
}

/** The definition that holds a server tool's snapshot: the first of its group with an `inputSchema`. */
export function snapshotDef(group: readonly ProfileTool[]): ToolDef | undefined {
  return group.find((t) => t.def.inputSchema !== undefined)?.def;
}

/** Builds the diff's expectations from a resolved profile. */
export function profileExpectations(profile: Profile): Expectations {
  const groups = toolsByServerTool(profile);
  const tools: ExpectedTool[] = [];
  const usedParams: Record<string, string[]> = {};
  for (const [name, list] of groups) {
    const snapshot = snapshotDef(list);
    const seed = list.find((t) => t.def.parameters !== undefined)?.def;
    const format = list.find((t) => t.def.output_format !== undefined)?.def.output_format;
    const expected: ExpectedTool = { name };
    if (snapshot?.inputSchema !== undefined) {
      expected.inputSchema = snapshot.inputSchema;
      if (snapshot.outputSchema !== undefined) expected.outputSchema = snapshot.outputSchema;
      const recorded = snapshot.server_description_md5;
      const text = snapshot.description;
      if (
        typeof recorded === "string" && (text === undefined || descriptionMd5(text) !== recorded)
      ) {
        expected.descriptionMd5 = recorded; // the user's text: compare the server's by its MD5
      } else expected.description = text ?? ""; // none recorded: the tool had no description
      const display = snapshot.server_display_md5;
      if (isPlainObject(display)) expected.displayMd5 = display as Record<string, string>;
      else expected.displayUnrecorded = true; // written before display digests
    } else if (seed?.parameters !== undefined) expected.parameters = seed.parameters;
    if (format !== undefined) expected.output_format = format;
    tools.push(expected);
    const used = new Set<string>();
    for (const tool of list) for (const path of usedParamPaths(tool.def)) used.add(path);
    if (used.size > 0) usedParams[name] = [...used].sort();
  }
  const complete = tools.length > 0 && tools.every((t) => t.inputSchema !== undefined);
  return { tools, usedParams, complete };
}

/** Parameter paths a tool definition uses: keys of defaults, example inputs, tested_with. */
export function usedParamPaths(def: ToolDef): string[] {
  const out = new Set<string>();
  const add = (value: unknown, prefix = "") => {
    if (!isPlainObject(value)) return;
    for (const [key, item] of Object.entries(value)) {
      const path = prefix === "" ? key : `${prefix}.${key}`;
      out.add(path);
      add(item, path);
    }
  };
  add(def.defaults);
  for (const example of Array.isArray(def.examples) ? def.examples : []) {
    add(isPlainObject(example) && isPlainObject(example.input) ? example.input : undefined);
  }
  for (const entry of Array.isArray(def.tested_with) ? def.tested_with : []) {
    if (isPlainObject(entry)) add(entry);
    else if (typeof entry === "string" && entry.includes("=")) {
      for (const pair of entry.split("&")) {
        const key = pair.split("=")[0];
        if (key !== "") out.add(decodeURIComponent(key));
      }
    }
  }
  return [...out];
}
