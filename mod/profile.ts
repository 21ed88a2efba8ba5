/**
 * Profiles as a program uses them, with the CLI's rules (`jn profile …`):
 * list and describe them, create one from a document or from a live server,
 * import editors' configs, trust a project's, compare one with its server
 * and update it. Every verb takes the caller's directory and environment
 * (`cwd`, `env`): the layers are the project's `.jn/profiles/mcp/`, the
 * user's `~/.local/jn/profiles/mcp/` (and `$JN_HOME`'s) and the bundled
 * ones.
 *
 * @example List the profiles, describe one, check a document
 * ```ts
 * import { describeProfile, listProfiles, profileFromDocument } from "@jn/jn/profile";
 *
 * const place = { cwd: Deno.cwd(), env: Deno.env.toObject() };
 * for (const entry of await listProfiles(place)) console.log(entry.name, entry.status);
 * const { info } = await describeProfile("@demo", place);
 * console.log(info.tools.map((tool) => tool.name)); // ["echo", "items"]
 * const files = profileFromDocument('{"command": "uvx", "args": ["mcp-server-time"]}');
 * console.log(files.meta.command); // "uvx"
 * ```
 *
 * @module
 */

export {
  type CreatedProfile,
  createProfile,
  type CreateProfileOptions,
  type ProfileFiles,
  profileFromDocument,
  profileName,
  type ProfilePlace,
} from "../lib/client/profile_create.ts";
export {
  checkImportPlan,
  type ConfigLocation,
  heldNames,
  type ImportOptions,
  type ImportPlan,
  importProfiles,
  type ImportResult,
  type PlannedImport,
  planProfileImport,
  type ProfileImportPlan,
  writeImport,
} from "../lib/client/profile_import.ts";
export {
  type TrustOutcome,
  trustProfile,
  type TrustRecord,
  type TrustReport,
  trustReportText,
  untrustProfile,
} from "../lib/client/profile_trust.ts";
export {
  describeProfile,
  type LaunchReview,
  type ProfileDescription,
  type ProfileInfo,
  type ProfileToolInfo,
  type Without,
} from "../lib/client/profile_info.ts";
export { type EntryStatus, listProfiles, type ProfileEntry } from "../lib/client/profile_list.ts";
export {
  applyProfileUpdate,
  compareWithLive,
  type DiscoveredProfile,
  discoverProfile,
  type DriftReport,
  driftReportText,
  hashServer,
  type LiveComparison,
  planProfileUpdate,
  type ProfileUpdate,
  type ServerHashes,
  type UpdatePlan,
  updateProfile,
} from "../lib/client/profile.ts";
export { type LoadOptions, loadProfile } from "../lib/profile/resolve.ts";
export type { LayerOptions } from "../lib/profile/layers.ts";
export type { TrustState } from "../lib/profile/trust.ts";
export type { ImportedServer } from "../lib/profile/edit/import.ts";
export type { ConfigScope, ServersKey } from "../lib/profile/edit/import_paths.ts";
export type {
  LayerName,
  MetaDef,
  Profile,
  ProfileTool,
  SchemaValidation,
  ToolDef,
} from "../lib/profile/types.ts";
