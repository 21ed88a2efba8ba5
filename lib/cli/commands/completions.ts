/**
 * `jn completions bash|zsh|fish` prints a completion script generated from
 * the command and flag tables (so it lists exactly the commands and flags
 * jn has); the scripts call the hidden `jn __complete source WORD`
 * (complete_word.ts) at completion time for the words only a running jn
 * knows.
 *
 * @module
 */

import { completionScript } from "../completion_scripts.ts";
import { completionSpec } from "../completion_spec.ts";
import type { Cli } from "../context.ts";
import type { Invocation } from "../table/command.ts";
import type { COMPLETIONS, Shell } from "../table/commands.ts";
import { writeText } from "../write.ts";

/** `jn completions SHELL`. */
export async function run(cli: Cli, call: Invocation<typeof COMPLETIONS>): Promise<void> {
  await writeText(cli.io, completionScript(call.args.shell as Shell, completionSpec()));
}
