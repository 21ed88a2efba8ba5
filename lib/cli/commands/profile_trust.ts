/**
 * `jn profile trust|untrust @server`: allow (or stop allowing) a project
 * profile to launch its command. Trust records the launch config as it is
 * now; see lib/profile/trust.ts for what it covers and where it is kept.
 *
 * @module
 */

import type { Command } from "commander";
import { loadProfile } from "../../profile/resolve.ts";
import { describeLaunch, recordTrust, removeTrust, trustState } from "../../profile/trust.ts";
import { printErr } from "../io.ts";
import type { Ctx } from "../main.ts";
import { profileName, writeText } from "./profile_common.ts";

/** Registers `profile trust` and `profile untrust`. */
export function registerProfileTrust(profile: Command, ctx: Ctx): void {
  profile.command("trust")
    .description("allow a project profile (.jn/profiles/mcp/) to launch its command")
    .argument("<server>", "@server")
    .action(async (server: string) => {
      const loaded = await loadForTrust(ctx, server);
      const state = await trustState(loaded, ctx.io.env);
      if (state === "not-needed") {
        await printErr(
          ctx.io,
          `jn: @${loaded.name} is a ${loaded.layer} profile (${loaded.dir}): only project profiles need trust`,
        );
        return;
      }
      await recordTrust(loaded, ctx.io.env);
      await writeText(
        ctx,
        `Trusted @${loaded.name} (${loaded.dir}) to launch ${describeLaunch(loaded.rawMeta)}${
          state === "changed" ? " (its launch config had changed)" : ""
        }\n`,
      );
    });

  profile.command("untrust")
    .description("withdraw the trust of a project profile")
    .argument("<server>", "@server")
    .action(async (server: string) => {
      const loaded = await loadForTrust(ctx, server);
      const removed = await removeTrust(loaded, ctx.io.env);
      await writeText(
        ctx,
        removed
          ? `Untrusted @${loaded.name} (${loaded.dir})\n`
          : `@${loaded.name} was not trusted; nothing to do\n`,
      );
    });
}

/** The profile as written (variables may be unset: trust looks at the raw launch config). */
function loadForTrust(ctx: Ctx, server: string): ReturnType<typeof loadProfile> {
  return loadProfile(profileName(server), { cwd: ctx.io.cwd, env: ctx.io.env, lenient: true });
}
