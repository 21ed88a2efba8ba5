/**
 * The verbs that compare a profile with its live server or write one from
 * it: the drift report of `jn profile validate|diff|update`, and the files
 * of `jn profile create --from SOURCE`. Both take a connection opened with
 * `ignoreSchema` (the check on use would only repeat what they report).
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
import type { ServerIdentity, ToolInfo } from "../types.ts";
import type { Connection } from "./connection.ts";
import { liveTools } from "./verbs.ts";

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
