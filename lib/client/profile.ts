/**
 * The verbs that compare a profile with its live server or write one from
 * it: the drift report of `jn profile validate|diff`
 * ({@linkcode compareWithLive}), the update of `jn profile update`
 * ({@linkcode planProfileUpdate}, {@linkcode applyProfileUpdate}, or both:
 * {@linkcode updateProfile}), and the files of `jn profile create --from
 * SOURCE` ({@linkcode discoverProfile}). They take a connection opened with
 * `ignoreSchema` (the check on use would only repeat what they report).
 *
 * Guarantees of an update: it rewrites only the layer that defines the
 * profile, keeping comments and formatting (lib/profile/edit/update.ts); a
 * bundled profile is never changed (ConfigError, exit 3); a project
 * profile's files are never written through a symlink.
 *
 * @module
 */

import { type DriftReport, driftReport } from "../drift/report.ts";
import { ConfigError } from "../errors.ts";
import {
  launchFields,
  liveProfileFiles,
  rawLaunchFields,
  withRecordedFlags,
} from "../profile/edit/from_live.ts";
import type { ProfileFiles } from "../profile/edit/write.ts";
import { applyUpdate, planUpdate, type UpdatePlan } from "../profile/edit/update.ts";
import { loadRawProfile } from "../profile/resolve.ts";
import { serverVersionEdits } from "../profile/edit/server_version.ts";
import type { ServerIdentity, ToolInfo } from "../types.ts";
import type { Connection } from "./connection.ts";
import type { ProfilePlace } from "./profile_create.ts";
import { serverName, type Target } from "./resolve.ts";
import { schemaHash, toolHashes } from "../schema/hash.ts";
import { liveTools } from "./verbs.ts";

export type { DriftReport } from "../drift/report.ts";
export { driftReportText } from "../drift/text.ts";
export type { UpdatePlan } from "../profile/edit/update.ts";

/** A profile and its live server, compared. */
export interface LiveComparison {
  /** The comparison, exact: it quotes the profile's values, secrets included (redact to show). */
  report: DriftReport;
  /** The server's tools. */
  live: ToolInfo[];
  /** What the server said about itself (its version for `server_version`). */
  server: ServerIdentity;
}

/** Compares the profile of a `@server` connection with the server's tools. */
export async function compareWithLive(conn: Connection): Promise<LiveComparison> {
  const profile = conn.target.profile;
  if (profile === undefined) {
    throw new ConfigError(`${conn.target.name} is not a profile: nothing to compare with`);
  }
  const live = await liveTools(conn);
  return { report: driftReport(profile, live), live, server: conn.session.server };
}

/** A discovered profile, and what of the connection's options it could not hold. */
export interface DiscoveredProfile extends ProfileFiles {
  /** Credential headers given by value (`--header`): left out, they would be secrets in a file. */
  skippedHeaders: string[];
}

/**
 * A profile discovered from the connected server: its launch (a profile's
 * as written, with its `${VAR}` references) plus the options the
 * connection was opened with that a profile holds (`envPassthrough`,
 * `sandbox`, `roots`, `headers`, `tokenEnv` as `${VAR}`, `elicitAnswers`), a description,
 * one tool file per tool with its schema snapshot, and the schema hash.
 */
export async function discoverProfile(
  conn: Connection,
  source: string,
): Promise<DiscoveredProfile> {
  const { target, options } = conn;
  const base = target.profile
    ? rawLaunchFields(target.profile.rawMeta)
    : launchFields(target.launch);
  const { launch, skipped } = withRecordedFlags(base, {
    envPassthrough: options.envPassthrough,
    sandbox: options.sandbox,
    roots: options.roots,
    headers: options.headers,
    tokenEnv: options.tokenEnv,
    elicitAnswers: options.elicitAnswers,
  });
  const files = liveProfileFiles({
    launch,
    server: conn.session.server,
    tools: await liveTools(conn),
    source,
  });
  return { ...files, skippedHeaders: skipped };
}

/** An update of a profile to its live server, planned: nothing written yet. */
export interface ProfileUpdate {
  /** The comparison it was planned from (exact: it quotes secrets; redact to show). */
  comparison: LiveComparison;
  /** Nothing to do: the profile has the live hash, no change and the server's version. */
  upToDate: boolean;
  /** What the update writes and removes, one line per action; absent when up to date. */
  plan?: UpdatePlan;
  /** The profile's directory (its defining layer's). */
  dir: string;
  /** The project directory when the profile is a project one (nothing written through a symlink in it). */
  project?: string;
}

/**
 * Plans the update of `target`'s profile to the live server of
 * `comparison`; nothing is written. A ConfigError for a bundled profile
 * that would need a change.
 */
export async function planProfileUpdate(
  target: Target,
  comparison: LiveComparison,
  place: ProfilePlace,
): Promise<ProfileUpdate> {
  const profile = target.profile;
  if (profile === undefined) {
    throw new ConfigError(`${target.name} is not a profile: nothing to update`);
  }
  const { report, live, server } = comparison;
  const versionEdits = serverVersionEdits(profile.rawMeta, server);
  if (report.status === "valid" && report.changes.length === 0 && versionEdits.length === 0) {
    return { comparison, upToDate: true, dir: profile.dir };
  }
  if (!profile.writable) {
    throw new ConfigError(`Profile ${report.server} is bundled with jn and cannot be changed`, {
      hint: `make your own copy first: jn profile create ${profile.name} --from ${report.server}`,
    });
  }
  const raw = await loadRawProfile(profile.name, place);
  const project = raw.location.defining.layer.name === "project" ? place.cwd : undefined;
  return {
    comparison,
    upToDate: false,
    plan: planUpdate(raw, live, report, { server }),
    dir: profile.dir,
    ...(project === undefined ? {} : { project }),
  };
}

/** Writes a planned update (nothing, when it is up to date). */
export async function applyProfileUpdate(update: ProfileUpdate): Promise<void> {
  if (update.plan) await applyUpdate(update.plan, { project: update.project });
}

/**
 * Compares the profile of a `@server` connection with its server and
 * rewrites it to match; the update is returned, applied.
 *
 * @example
 * ```ts ignore
 * import { open } from "@jn/jn";
 * import { updateProfile } from "@jn/jn/profile";
 *
 * const env = Deno.env.toObject();
 * await using conn = await open("@mine", { cwd: Deno.cwd(), env, ignoreSchema: true });
 * const update = await updateProfile(conn);
 * console.log(update.upToDate ? "up to date" : update.plan?.actions);
 * ```
 */
export async function updateProfile(conn: Connection): Promise<ProfileUpdate> {
  const comparison = await compareWithLive(conn);
  const update = await planProfileUpdate(conn.target, comparison, conn.options);
  await applyProfileUpdate(update);
  return update;
}

/** The seed-compatible schema hashes of a server's tools (`jn mcp hash`). */
export interface ServerHashes {
  /** The seed's `server` field: a naked URI's location, or a profile's name. */
  server: string;
  /** The hash of every tool the server lists (what `schema_hash` records). */
  hash: string;
  /** Each tool's hash, by name. */
  tools: Record<string, string>;
  /** A profile's recorded `schema_hash` (`null`: it records none). */
  profile_hash?: string | null;
  /** Whether the profile's hash is the live one. */
  matches?: boolean;
}

/**
 * The hashes of the connected server's tools — every tool it lists,
 * whatever `allow_tools`/`deny_tools` say — and, for a profile, how they
 * compare with the hash it recorded.
 */
export async function hashServer(conn: Connection): Promise<ServerHashes> {
  const tools = await liveTools(conn);
  const { target } = conn;
  const hash = schemaHash(tools);
  const recorded = target.profile?.meta.schema_hash;
  return {
    server: serverName(target),
    hash,
    tools: toolHashes(tools),
    ...(target.profile === undefined
      ? {}
      : { profile_hash: recorded ?? null, matches: recorded === hash }),
  };
}
