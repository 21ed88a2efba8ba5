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

import { loadProfile } from "../../profile/resolve.ts";
import { checkTrust, recordTrust, removeTrust } from "../../profile/trust.ts";
import { trustReport, trustReportText } from "../../profile/trust_report.ts";
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
  await printErr(cli.io, trustReportText(await trustReport(loaded, check, cli.io.cwd)));
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

/** The profile as written (variables may be unset: trust looks at the files, not their values). */
function loadForTrust(cli: Cli, server: string): Promise<Profile> {
  return loadProfile(profileName(server), { cwd: cli.io.cwd, env: cli.io.env, lenient: true });
}
