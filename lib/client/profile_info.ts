/**
 * Describing a profile, as a verb (`jn profile info @server`): the resolved
 * profile as data ({@linkcode ProfileInfo}: its fields as displayed, its
 * tools, the ones `allow_tools`/`deny_tools` hide by name only), the review
 * of its launch (lib/profile/launch_review.ts) and its trust state.
 *
 * Guarantees: nothing is launched; variables are not required to be set
 * (an unset one is listed); substituted values show as `***` and the
 * profile's secrets are handed back so that every rendering can redact
 * them once more; texts from the profile's files come back as written
 * (a caller shows them with control characters made visible). Light: no
 * `node:` module, so `profile info` stays quick.
 *
 * @module
 */

import { type LaunchReview, launchReview } from "../profile/launch_review.ts";
import { loadProfile } from "../profile/resolve.ts";
import { curatedProfileTools } from "../profile/tool_filter.ts";
import { type TrustState, trustState } from "../profile/trust.ts";
import type { LayerName, MetaDef, Profile, ProfileTool, ToolDef } from "../profile/types.ts";
import type { ProfilePlace } from "./profile_create.ts";
import { profileName } from "./profile_name.ts";

export { describeArgv } from "../launch/spec.ts";
export { type LaunchReview, warningLines } from "../profile/launch_review.ts";

/** A profile described (see the module doc). */
export interface ProfileDescription {
  /** What `profile info --format json` prints. */
  info: ProfileInfo;
  /** Its launch, field by field. */
  review: LaunchReview;
  /** Values substituted from the environment: redact them from anything shown. */
  secrets: string[];
}

/**
 * A profile's fields as displayed (`_meta.json` with substituted values as
 * `***`), its tools, and its trust state: what `profile info --format json`
 * prints.
 */
export interface ProfileInfo extends Without<MetaDef, "tools"> {
  /** The server name (without `@`). */
  name: string;
  /** The layer whose `_meta.json` defines it. */
  layer: LayerName;
  /** Its directory, as named. */
  dir: string;
  /** Its `_meta.json`. */
  meta_file: string;
  /** Whether jn may write it (not bundled). */
  writable: boolean;
  /** Variables it names that are not set. */
  unset_variables?: string[];
  /** The tools a caller may use. */
  tools: ProfileToolInfo[];
  /** The tools `allow_tools`/`deny_tools` hide, by name only. */
  hidden_tools?: string[];
  /** Directories of higher layers with tool files but no `_meta.json`. */
  ignored?: string[];
  /** `trusted`, `untrusted`, `changed`, `moved` or `not-needed`. */
  trust: TrustState;
  /** The variables of `env` that load code. */
  warnings?: LaunchReview["warnings"];
}

/** `T` without its field `K` (its other fields and index signature kept, unlike `Omit`). */
export type Without<T, K extends string> = { [P in keyof T as P extends K ? never : P]: T[P] };

/** One tool of a {@linkcode ProfileInfo}: its definition as displayed. */
export interface ProfileToolInfo extends Without<ToolDef, "tool"> {
  /** The profile's tool name. */
  name: string;
  /** The server's tool it calls. */
  tool: string;
  /** The layer its definition comes from. */
  layer: LayerName;
  /** Its tool file, when it has one. */
  file?: string;
}

/**
 * Describes the profile `server` (`@name` or `name`).
 *
 * @example
 * ```ts
 * import { describeProfile } from "@jn/jn/profile";
 *
 * const { info } = await describeProfile("@demo", { cwd: Deno.cwd(), env: {} });
 * console.log(info.layer, info.tools.map((tool) => tool.name)); // "bundled" ["echo", "items"]
 * ```
 */
export async function describeProfile(
  server: string,
  place: ProfilePlace,
): Promise<ProfileDescription> {
  const profile = await loadProfile(profileName(server), { ...place, lenient: true });
  const review = await launchReview(profile, place.cwd);
  const info: ProfileInfo = {
    ...profileFields(profile),
    ...(review.warnings.length > 0 ? { warnings: review.warnings } : {}),
    trust: await trustState(profile, place.env),
  };
  return { info, review, secrets: profile.secrets };
}

function profileFields(profile: Profile): Without<ProfileInfo, "trust" | "warnings"> {
  const { tools: _tools, ...meta } = profile.displayMeta;
  // allow_tools/deny_tools: the tools a caller cannot use are named, not shown.
  const { offered, hidden } = curatedProfileTools(profile);
  return {
    name: profile.name,
    layer: profile.layer,
    dir: profile.dir,
    meta_file: profile.metaFile,
    writable: profile.writable,
    ...meta,
    ...(profile.missing.length > 0 ? { unset_variables: profile.missing } : {}),
    tools: offered.map((tool) => toolFields(tool)),
    ...(hidden.length > 0 ? { hidden_tools: hidden.map((tool) => tool.name) } : {}),
    ...(profile.ignored.length > 0 ? { ignored: profile.ignored } : {}),
  };
}

function toolFields(tool: ProfileTool): ProfileToolInfo {
  const { tool: _tool, inputSchema, ...def } = tool.display;
  return {
    name: tool.name,
    tool: tool.serverTool,
    layer: tool.layer,
    ...(tool.file === undefined ? {} : { file: tool.file }),
    ...def,
    ...(inputSchema === undefined ? {} : { inputSchema }),
  };
}
