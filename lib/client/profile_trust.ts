/**
 * `trust` and `untrust` as verbs: allow (or stop allowing) a project profile
 * to launch its server and shape its calls. What trust covers and where it
 * is kept: lib/profile/trust.ts.
 *
 * Guarantees: the profile is read once, its variables left unexpanded
 * (trust looks at the files, not their values); the report
 * ({@linkcode TrustReport}: the launch as the user reviews it, every file of
 * the directory, what changed since the last trust) is of exactly what is
 * recorded; a profile of the user's own layers needs no trust and gets none.
 *
 * @module
 */

import { loadProfile } from "../profile/resolve.ts";
import { checkTrust, recordTrust, removeTrust } from "../profile/trust.ts";
import { type TrustReport, trustReport } from "../profile/trust_report.ts";
import type { TrustRecord } from "../profile/trust_store.ts";
import type { Profile } from "../profile/types.ts";
import type { ProfilePlace } from "./profile_create.ts";
import { profileName } from "./profile_name.ts";

export { type TrustReport, trustReportText } from "../profile/trust_report.ts";
export type { TrustRecord } from "../profile/trust_store.ts";

/** What {@linkcode trustProfile} did. */
export interface TrustOutcome {
  /** The profile, as read for the report and the record. */
  profile: Profile;
  /** What was trusted; absent when the profile needs no trust (not a project profile). */
  report?: TrustReport;
  /**
   * The trust this one replaced: the same directory (by its real path)
   * trusted under another name or path, which no longer launches.
   */
  replaced?: TrustRecord;
}

/**
 * Trusts the project profile `server` (`@name` or `name`) as it is now.
 *
 * @example
 * ```ts ignore
 * import { trustProfile, trustReportText } from "@jn/jn/profile";
 *
 * const { report } = await trustProfile("@mine", { cwd: Deno.cwd(), env: Deno.env.toObject() });
 * if (report) console.error(trustReportText(report));
 * ```
 */
export async function trustProfile(server: string, options: ProfilePlace): Promise<TrustOutcome> {
  const profile = await loadForTrust(server, options);
  const check = await checkTrust(profile, options.env);
  if (check.state === "not-needed") return { profile };
  const report = await trustReport(profile, check, options.cwd);
  const replaced = await recordTrust(profile, options.env);
  return { profile, report, ...(replaced ? { replaced } : {}) };
}

/** Removes the trust of the project profile `server`; `removed` is false when it had none. */
export async function untrustProfile(
  server: string,
  options: ProfilePlace,
): Promise<{ profile: Profile; removed: boolean }> {
  const profile = await loadForTrust(server, options);
  return { profile, removed: await removeTrust(profile, options.env) };
}

/** The profile as written (variables may be unset: trust looks at the files, not their values). */
function loadForTrust(server: string, options: ProfilePlace): Promise<Profile> {
  return loadProfile(profileName(server), { ...options, lenient: true });
}
