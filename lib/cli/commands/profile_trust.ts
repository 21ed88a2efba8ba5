/**
 * `jn profile trust|untrust @server`: allow (or stop allowing) a project
 * profile to launch its server and shape its calls (lib/client's
 * `trustProfile`, `untrustProfile`). `trust` says on stderr what it trusted
 * (the launch, the working directory, every file of the profile directory)
 * and, on a new trust, what changed since the last one.
 *
 * @module
 */

import { trustProfile, trustReportText, untrustProfile } from "../../client/profile_trust.ts";
import { visibleLine } from "../../output/visible.ts";
import { printErr } from "../io.ts";
import type { Cli } from "../context.ts";
import type { Invocation } from "../table/command.ts";
import type { PROFILE_TRUST, PROFILE_UNTRUST } from "../table/commands.ts";

/** `jn profile trust|untrust @server`. */
export async function run(
  cli: Cli,
  call: Invocation<typeof PROFILE_TRUST | typeof PROFILE_UNTRUST>,
): Promise<void> {
  const place = { cwd: cli.io.cwd, env: cli.io.env };
  if (call.command.path[1] === "untrust") {
    const { profile, removed } = await untrustProfile(call.args.server, place);
    await printErr(
      cli.io,
      removed
        ? `Untrusted @${profile.name} (${visibleLine(profile.dir)})`
        : `jn: @${profile.name} was not trusted; nothing to do`,
    );
    return;
  }
  const { profile, report, replaced } = await trustProfile(call.args.server, place);
  if (report === undefined) {
    await printErr(
      cli.io,
      `jn: @${profile.name} is a ${profile.layer} profile (${profile.dir}): only project profiles need trust`,
    );
    return;
  }
  await printErr(cli.io, trustReportText(report));
  await printErr(cli.io, `Trusted @${profile.name} (${visibleLine(profile.dir)})`);
  if (replaced) {
    // Trust is kept per real directory: the other name no longer launches.
    const other = visibleLine(replaced.server);
    await printErr(
      cli.io,
      `jn: this replaced the trust of @${other} (${visibleLine(replaced.path)}), the same ` +
        `directory by its real path ${visibleLine(profile.realDir)}: it no longer launches ` +
        `until trusted again (jn profile trust @${other} there)`,
    );
  }
}
