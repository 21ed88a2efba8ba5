/**
 * The usage errors of the command-line parser (parse.ts) about one flag: an
 * unknown option (with the closest one), a missing value, a value outside
 * a fixed set. Each names what was wrong and where to read more.
 *
 * @module
 */

import { UsageError } from "../errors.ts";
import { closest } from "../text/suggest.ts";
import type { AnyFlag } from "./table/flag.ts";
import { GLOBAL_FLAGS } from "./table/flags.ts";

/** An option the command does not take, with the closest it does. */
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

/** A value outside the flag's (or argument's) fixed set. */
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
