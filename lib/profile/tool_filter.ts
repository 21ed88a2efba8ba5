/**
 * A profile's curation of tool names (`allow_tools`, `deny_tools` in
 * `_meta.json`, globs of lib/text/glob.ts): which names a caller may use.
 * Every verb asks the same filter (lib/client/call.ts, inspect.ts, verbs.ts,
 * curate.ts), so a name it refuses is "not found" everywhere.
 *
 * A name is offered when `allow_tools` is absent or one of its globs
 * matches, and no glob of `deny_tools` matches (deny wins). The name is the
 * one a caller uses: a server tool's own name, or a profile tool's name (the
 * file name of `items.json`, which may call the server's `list_items`). So
 * `deny_tools: ["list_items"]` with an `items.json` that calls it offers
 * `items` (with the profile's defaults) and not the raw tool, and
 * `allow_tools: ["items"]` offers only that alias.
 *
 * @module
 */

import { globMatcher } from "../text/glob.ts";
import type { MetaDef, Profile, ProfileTool } from "./types.ts";

/** Which tool names a profile offers. */
export interface ToolFilter {
  /** Whether a caller may use the tool of this name (a server or a profile tool name). */
  allows(name: string): boolean;
  /** Whether the profile curates at all (has `allow_tools` or `deny_tools`). */
  curated: boolean;
}

/** Every name allowed: no profile, or one without `allow_tools` and `deny_tools`. */
const EVERYTHING: ToolFilter = { allows: () => true, curated: false };

/**
 * The filter of a profile's `_meta.json` (its globs were validated when the
 * file was read: lib/profile/fields.ts).
 *
 * @example
 * ```ts
 * const filter = toolFilter({ allow_tools: ["get_*"], deny_tools: ["get_secret"] });
 * filter.allows("get_user"); // true
 * filter.allows("get_secret"); // false
 * filter.allows("delete_user"); // false
 * ```
 */
export function toolFilter(meta: MetaDef | undefined): ToolFilter {
  const allow = meta?.allow_tools?.map(globMatcher);
  const deny = meta?.deny_tools?.map(globMatcher) ?? [];
  if (allow === undefined && deny.length === 0) return EVERYTHING;
  return {
    allows: (name) =>
      (allow === undefined || allow.some((m) => m(name))) && !deny.some((m) => m(name)),
    curated: true,
  };
}

/** The filter of a connection's profile (everything for a naked URI). */
export function profileFilter(profile: Profile | undefined): ToolFilter {
  return toolFilter(profile?.meta);
}

/** A profile's tools split by its curation: those it offers, and those it withholds. */
export function curatedProfileTools(
  profile: Profile,
): { offered: ProfileTool[]; hidden: ProfileTool[] } {
  const filter = profileFilter(profile);
  return {
    offered: profile.tools.filter((tool) => filter.allows(tool.name)),
    hidden: profile.tools.filter((tool) => !filter.allows(tool.name)),
  };
}
