/**
 * `jn help [COMMAND…]`: the help of jn, of a command (`jn help cat`, `jn
 * help mcp schema`), the same text as `--help`, made from the tables
 * (lib/cli/help.ts, rendered into lib/cli/table/compiled_help.ts); an
 * unknown command is a usage error with the closest one. `jn help @profile/tool` (or `SOURCE?tool=NAME`): that tool's
 * signature, description, schema and the profile's notes — from the
 * profile's saved snapshot when it has one (no server starts), else from the
 * live server (commands/inspect.ts renders it).
 *
 * @module
 */

import { UsageError } from "../../errors.ts";
import type { Cli } from "../context.ts";
import { helpTopic } from "../parse.ts";
import type { Invocation } from "../table/command.ts";
import type { HELP_COMMAND } from "../table/commands.ts";
import { helpFor } from "../table/compiled_help.ts";
import { writeText } from "../write.ts";

/** `jn help [COMMAND…]`. */
export async function run(cli: Cli, call: Invocation<typeof HELP_COMMAND>): Promise<void> {
  const words = call.args.command;
  if (words.length > 0 && isSource(words[0])) {
    if (words.length > 1) {
      throw new UsageError(`jn help takes one tool at a time, got ${words.length} words`, {
        hint: `e.g. jn help ${words[0]}`,
      });
    }
    const { writeToolHelp } = await import("./inspect.ts");
    await writeToolHelp(cli, words[0], call.options);
    return;
  }
  await writeText(cli.io, helpFor(await helpTopic(words)));
}

/** A word that names a source, not a command: `@profile/tool`, `mcp+…://…`. */
function isSource(word: string): boolean {
  return word.startsWith("@") || word.startsWith("mcp+");
}
