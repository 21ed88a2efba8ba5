/**
 * `1 breaking change`, `2 breaking changes`: shared by the drift check and
 * its text, in a module of its own so that the text (which the CLI loads
 * with every connection) does not load the check (the schema diff), which
 * loads for a profile that records schemas only.
 *
 * @module
 */

/** `1 breaking change`, `2 breaking changes`. */
export function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}
