/**
 * Every command jn has, registered on the commander program in help order.
 *
 * @module
 */

import type { Command } from "commander";
import type { Ctx } from "../main.ts";
import { registerAuth } from "./auth.ts";
import { registerCat } from "./cat.ts";
import { registerCompletions } from "./completions.ts";
import { registerFilter } from "./filter.ts";
import { registerHelp } from "./help.ts";
import { registerInspect } from "./inspect.ts";
import { registerMcp } from "./mcp.ts";
import { registerProfile } from "./profile.ts";
import { registerPut } from "./put.ts";

/** Registers all commands. */
export function registerCommands(program: Command, ctx: Ctx): void {
  registerInspect(program, ctx);
  registerCat(program, ctx);
  registerPut(program, ctx);
  registerFilter(program, ctx);
  registerMcp(program, ctx);
  registerProfile(program, ctx);
  registerAuth(program, ctx);
  registerCompletions(program, ctx);
  registerHelp(program, ctx);
  // A deliberate bug, hidden from help: lets the tests prove that an
  // unexpected exception exits 70 with a one-line message (and a stack under --debug).
  program.command("__internal-error", { hidden: true }).action(() => {
    throw new TypeError("deliberate internal error for tests");
  });
}
