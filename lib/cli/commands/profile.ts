/**
 * `jn profile …`: list, show, create, trust, import, validate, diff and
 * update profiles (SPEC §1, §4, §5). Each group of subcommands lives in its
 * own module; this one only assembles them.
 *
 * @module
 */

import type { Command } from "commander";
import type { Cli } from "../context.ts";
import { registerProfileCreate } from "./profile_create.ts";
import { registerProfileDrift } from "./profile_drift.ts";
import { registerProfileImport } from "./profile_import.ts";
import { registerProfileShow } from "./profile_show.ts";
import { registerProfileTrust } from "./profile_trust.ts";

/** Registers `profile` and its subcommands. */
export function registerProfile(program: Command, cli: Cli): void {
  const profile = program.command("profile").description(
    "saved servers (@name): list, info, create, trust, import, validate, diff, update",
  );
  registerProfileShow(profile, cli);
  registerProfileCreate(profile, cli);
  registerProfileTrust(profile, cli);
  registerProfileImport(profile, cli);
  registerProfileDrift(profile, cli);
}
