/**
 * Every command module, imported statically: one module graph for Deno to
 * prepare when all commands are needed (`jn --help`), which is faster than
 * eight dynamic imports. Help order (`help` itself is registered by registry.ts).
 *
 * @module
 */

import type { Command } from "commander";
import type { Ctx } from "../main.ts";
import { registerAuth } from "./auth.ts";
import { registerCat } from "./cat.ts";
import { registerCompletions } from "./completions.ts";
import { registerFilter } from "./filter.ts";
import { registerInspect } from "./inspect.ts";
import { registerMcp } from "./mcp.ts";
import { registerProfile } from "./profile.ts";
import { registerPut } from "./put.ts";

/** The register function of every command, in help order. */
export const ALL_COMMANDS: ((program: Command, ctx: Ctx) => void)[] = [
  registerInspect,
  registerCat,
  registerPut,
  registerFilter,
  registerMcp,
  registerProfile,
  registerAuth,
  registerCompletions,
];
