/**
 * The usage errors of jn's parser (lib/cli/parse.ts): each names what was
 * wrong on the command line and, as its hint, the closest command, option
 * or value of the tables, or where the help is.
 *
 * @module
 */

import { UsageError } from "../errors.ts";
import { closest } from "../text/suggest.ts";
import type { AnyFlag } from "./table/flag.ts";
import { GLOBAL_FLAGS } from "./table/flags.ts";

/** A word where a command or subcommand must be, that names none. */
export function unknownCommand(
  next: readonly string[],
  path: readonly string[],
  word: string,
): UsageError {
  const near = closest(word, next);
  const where = ["jn", ...path].join(" ");
  const help = path.length === 0 ? "'jn help'" : `'jn help ${path.join(" ")}'`;
  return new UsageError(`Unknown command "${word}"`, {
    hint: near !== undefined
      ? `did you mean '${where} ${near}'? (see ${help})`
      : `${where} has: ${next.join(", ")}`,
  });
}

/** A group (`jn profile`) without its subcommand. */
export function missingSubcommand(next: readonly string[], path: readonly string[]): UsageError {
  const full = ["jn", ...path].join(" ");
  return new UsageError(`Missing a subcommand after "${full}"`, {
    hint: `${full} has: ${next.join(", ")} (see 'jn help ${path.join(" ")}')`,
  });
}

/** An option the command does not take. */
export function unknownOption(
  spelled: string,
  flags: readonly AnyFlag[],
  name: string,
): UsageError {
  const all: readonly AnyFlag[] = [...flags, ...GLOBAL_FLAGS];
  const names = all.filter((f) => !f.hidden).flatMap((f) => [
    `--${f.long}`,
    ...(f.short ? [`-${f.short}`] : []),
  ]);
  const near = spelled.startsWith("--") ? closest(spelled, names) : undefined;
  const help = name === "jn" ? "'jn help' or 'jn help COMMAND'" : `'jn help ${name}'`;
  return new UsageError(`Unknown option "${spelled}"`, {
    hint: near !== undefined ? `did you mean ${near}? (see ${help})` : `see ${help}`,
  });
}

/** A value flag at the end of the line. */
export function missingValue(flag: AnyFlag, spelled: string, name: string): UsageError {
  return new UsageError(`Option ${spelled} needs a value (${spelled} <${flag.value}>)`, {
    hint: `see 'jn help ${name}'`,
  });
}

/** A value outside a flag's or argument's fixed set. */
export function badChoice(
  choices: readonly string[],
  spelled: string,
  value: string,
  what = "Invalid",
): UsageError {
  const near = closest(value, choices);
  return new UsageError(`${what} ${spelled} "${value}"`, {
    hint: near !== undefined
      ? `did you mean ${near}? (use ${choices.join(", ")})`
      : `use ${choices.join(", ")}`,
  });
}
