/**
 * `jn profile trust|untrust @server`: allow (or stop allowing) a project
 * profile to launch its server and shape its calls. `trust` says on stderr
 * what it trusts (the launch, the working directory, every file of the
 * profile directory) and, on a new trust, what changed since the last one;
 * it records the directory exactly as it was read for this report. See
 * lib/profile/trust.ts for what trust covers and where it is kept.
 *
 * @module
 */

import { resolve } from "node:path";
import { loadProfile } from "../../profile/resolve.ts";
import {
  checkTrust,
  describeLaunch,
  recordTrust,
  removeTrust,
  type TrustCheck,
} from "../../profile/trust.ts";
import { describeChange } from "../../profile/trust_changes.ts";
import type { Profile } from "../../profile/types.ts";
import { visibleLine } from "../../output/visible.ts";
import { printErr } from "../io.ts";
import type { Cli } from "../context.ts";
import type { Invocation } from "../table/command.ts";
import type { PROFILE_TRUST, PROFILE_UNTRUST } from "../table/commands.ts";
import { profileName } from "./profile_common.ts";

/** `jn profile trust|untrust @server`. */
export async function run(
  cli: Cli,
  call: Invocation<typeof PROFILE_TRUST | typeof PROFILE_UNTRUST>,
): Promise<void> {
  if (call.command.path[1] === "trust") await trust(cli, call.args.server);
  else await untrust(cli, call.args.server);
}

async function trust(cli: Cli, server: string): Promise<void> {
  const loaded = await loadForTrust(cli, server);
  const check = await checkTrust(loaded, cli.io.env);
  if (check.state === "not-needed") {
    await printErr(
      cli.io,
      `jn: @${loaded.name} is a ${loaded.layer} profile (${loaded.dir}): only project profiles need trust`,
    );
    return;
  }
  await printErr(cli.io, trustReport(loaded, check, await launchDir(loaded, cli.io.cwd)));
  const replaced = await recordTrust(loaded, cli.io.env);
  await printErr(cli.io, `Trusted @${loaded.name} (${visibleLine(loaded.dir)})`);
  if (replaced) {
    // Trust is kept per real directory: the other name no longer launches.
    await printErr(
      cli.io,
      `jn: this replaced the trust of @${visibleLine(replaced.server)} (${
        visibleLine(replaced.path)
      }), the same directory by its real path ${visibleLine(loaded.realDir)}: ` +
        `it no longer launches until trusted again (jn profile trust @${
          visibleLine(replaced.server)
        } there)`,
    );
  }
}

async function untrust(cli: Cli, server: string): Promise<void> {
  const loaded = await loadForTrust(cli, server);
  const removed = await removeTrust(loaded, cli.io.env);
  await printErr(
    cli.io,
    removed
      ? `Untrusted @${loaded.name} (${visibleLine(loaded.dir)})`
      : `jn: @${loaded.name} was not trusted; nothing to do`,
  );
}

/** What `trust` is about to record, and what changed since the last trust. */
function trustReport(profile: Profile, check: TrustCheck, dir: string): string {
  const lines = [`Trusting @${profile.name}: ${visibleLine(profile.dir)}`];
  if (profile.realDir !== profile.dir) lines.push(`  real path: ${visibleLine(profile.realDir)}`);
  lines.push(`  launches:  ${describeLaunch(profile.rawMeta)}`);
  // A sampling command runs on this machine too (sh -c, for each sampling request).
  const sampling = profile.rawMeta.sampling_command;
  if (typeof sampling === "string") {
    lines.push(`  samples:   sh -c ${visibleLine(JSON.stringify(sampling))}`);
  }
  // Where the server starts, always: without "cwd" it runs in (and its relative paths name files
  // of) the current directory, which trust does not cover.
  const here = profile.rawMeta.cwd === undefined
    ? " (the current directory, not covered by trust)"
    : "";
  lines.push(`  in:        ${visibleLine(dir)}${here}`);
  const files = Object.keys(profile.entries ?? {}).sort().map(visibleLine);
  lines.push(`  files:     ${files.join(", ")}`);
  switch (check.state) {
    case "changed":
      if (check.legacy) {
        lines.push("  last trusted by an older jn, which checked only the launch fields");
        break;
      }
      lines.push(`  changed since you trusted it (${check.record?.trusted_at}):`);
      for (const change of check.changes ?? []) lines.push(`    ${describeChange(change)}`);
      break;
    case "moved":
      lines.push(
        `  you trusted it at ${
          visibleLine(check.trustedRealPath ?? "?")
        }: a symlink on its path changed`,
      );
      break;
    case "trusted":
      lines.push(`  unchanged since you trusted it (${check.record?.trusted_at})`);
      break;
    case "untrusted":
    case "not-needed":
      break;
    default: {
      const never: never = check.state;
      throw new Error(`Unknown trust state ${never}`);
    }
  }
  return lines.join("\n");
}

/** The real path of the directory the server would start in. */
async function launchDir(profile: Profile, cwd: string): Promise<string> {
  const dir = profile.rawMeta.cwd === undefined
    ? cwd
    : resolve(profile.realDir, profile.rawMeta.cwd);
  return await Deno.realPath(dir).catch(() => dir);
}

/** The profile as written (variables may be unset: trust looks at the files, not their values). */
function loadForTrust(cli: Cli, server: string): Promise<Profile> {
  return loadProfile(profileName(server), { cwd: cli.io.cwd, env: cli.io.env, lenient: true });
}
