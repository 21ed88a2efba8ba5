/**
 * `jn profile list` and `jn profile info @server`: what profiles exist and
 * what one resolves to, without launching anything: the commander wiring of
 * profile_list_text.ts and profile_info_text.ts, which print them.
 *
 * @module
 */

import type { Command } from "commander";
import { action, type Cli } from "../context.ts";
import { FORMAT_OPTION, parseFormat } from "../format.ts";
import { writeText } from "../write.ts";
import { profileInfoText } from "./profile_info_text.ts";
import { profileListText } from "./profile_list_text.ts";

/** Registers `profile list` and `profile info`. */
export function registerProfileShow(profile: Command, cli: Cli): void {
  profile.command("list")
    .description("every profile, with the layer it comes from")
    .option(FORMAT_OPTION.flags, FORMAT_OPTION.description, FORMAT_OPTION.default)
    .action(action(cli, async (raw: { format: string }) => {
      await writeText(cli.io, await profileListText(cli.io, parseFormat(raw.format)));
    }));

  profile.command("info")
    .description("the resolved profile (secrets shown as ***) and its tools")
    .argument("<server>", "@server")
    .option(FORMAT_OPTION.flags, FORMAT_OPTION.description, FORMAT_OPTION.default)
    .action(action(cli, async (server: string, raw: { format: string }) => {
      const format = parseFormat(raw.format);
      await writeText(cli.io, await profileInfoText(cli.io, server, format));
    }));
}
