/**
 * A command line that names no command, subcommand or option jn has: one
 * usage error with the closest name as the hint (`jn catt` → did you mean
 * 'jn cat'?), whether commander found it (its "(Did you mean …?)" becomes
 * the hint) or `--help` would have hidden it (`jn catt --help` would print
 * jn's help instead).
 *
 * @module
 */

import type { Command, CommanderError } from "commander";
import { UsageError } from "../errors.ts";
import { closest } from "../text/suggest.ts";

/** Commander's unknown command/option error as jn's UsageError. */
export function commanderUsageError(
  error: CommanderError,
  program: Command | undefined,
  args: readonly string[],
): UsageError {
  const [, what, near] = /^(?:error: )?([^\n]*?)\s*(?:\(Did you mean (.+)\?\))?$/s.exec(
    error.message,
  ) ?? [];
  const path = commandPath(program, args);
  const help = path !== ""
    ? `see 'jn help ${path}'`
    : near !== undefined
    ? "see 'jn help'"
    : "see 'jn help' or 'jn help COMMAND'";
  const suggestion = near === undefined
    ? undefined
    : error.code === "commander.unknownCommand"
    ? `'${["jn", path, near].filter((w) => w !== "").join(" ")}'`
    : near;
  const message = (what ?? error.message).replace(/'([^']*)'/, '"$1"');
  return new UsageError(message.charAt(0).toUpperCase() + message.slice(1), {
    hint: suggestion !== undefined ? `did you mean ${suggestion}? (${help})` : help,
  });
}

/** The words of `args` that name a command and its subcommands (`profile create`). */
function commandPath(program: Command | undefined, args: readonly string[]): string {
  const path: string[] = [];
  let command = program;
  for (const word of args.filter((arg) => !arg.startsWith("-"))) {
    const sub = command?.commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (sub === undefined) break;
    path.push(sub.name());
    command = sub;
  }
  return path.join(" ");
}

/**
 * `jn catt --help`, `jn profile lst --help`: a word where a subcommand must be
 * that names none is a usage error with the closest name, as it is without
 * `--help` (where commander would show the parent's help instead).
 */
export function refuseUnknownCommand(program: Command, args: readonly string[]): void {
  if (!args.includes("--help") && !args.includes("-h")) return;
  let command = program;
  const path: string[] = [];
  for (const word of args) {
    if (word === "--debug" || word === "-q" || word === "--quiet") continue;
    const subs = command.commands.filter((c) => c.name() !== "help");
    if (word.startsWith("-") || subs.length === 0) return;
    const sub = subs.find((c) => c.name() === word || c.aliases().includes(word));
    if (sub === undefined) {
      const near = closest(word, subs.map((c) => c.name()));
      const where = ["jn", ...path].join(" ");
      throw new UsageError(`Unknown command "${word}"`, {
        hint: near !== undefined
          ? `did you mean '${where} ${near}'?`
          : `${where} has: ${subs.map((c) => c.name()).join(", ")}`,
      });
    }
    command = sub;
    path.push(sub.name());
  }
}
