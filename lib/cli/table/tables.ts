/**
 * jn's command and flag tables as one object: the commands (commands.ts),
 * the groups, the global flags (flags.ts) and the help texts no row makes
 * (footers.ts, rendered). This is the source of truth that `deno task
 * tables` (scripts/tables.ts) compiles for start-up — into plain data
 * (compiled.ts) and the rendered help (compiled_help.ts) — and that tests
 * extend with throwaway rows.
 *
 * @module
 */

import type { CommandDef, HelpTables } from "./command.ts";
import { COMMANDS, GROUPS, PROGRAM_SUMMARY } from "./commands.ts";
import { GLOBAL_FLAGS, VERSION_FLAG } from "./flags.ts";
import { FOOTERS, programFooter } from "./footers.ts";

/** The real tables, every flag with its `apply`. */
export const TABLES: HelpTables<CommandDef> = {
  commands: COMMANDS,
  groups: GROUPS,
  globalFlags: GLOBAL_FLAGS,
  versionFlag: VERSION_FLAG,
  programSummary: PROGRAM_SUMMARY,
  footers: Object.fromEntries(Object.entries(FOOTERS).map(([name, text]) => [name, text()])),
  programFooter: programFooter(),
};
