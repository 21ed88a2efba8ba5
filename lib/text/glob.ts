/**
 * The globs of a profile's `allow_tools` and `deny_tools` (docs/profiles.md,
 * "Curation"): a pattern matches a whole name, case-sensitively.
 *
 * | in a pattern         | matches                                          |
 * | -------------------- | ------------------------------------------------ |
 * | `*`                  | any run of characters, the empty one too         |
 * | `?`                  | exactly one character (one Unicode code point)   |
 * | `\` then a character | that character itself (`\*`, `\?`, `\\`, `\[`)   |
 * | `[` `]` `{` `}`      | reserved (an error): escape them to match them   |
 * | anything else        | itself                                           |
 *
 * `[…]` and `{a,b}` are reserved so that a later jn can give them their
 * usual meaning without changing what an existing profile's globs match.
 * Pure: no I/O.
 *
 * @module
 */

/** Why `pattern` is not a valid glob, or undefined when it is. */
export function globProblem(pattern: string): string | undefined {
  if (pattern === "") return "it is empty";
  const chars = [...pattern];
  for (let i = 0; i < chars.length; i++) {
    const char = chars[i];
    if (char === "\\") {
      if (i === chars.length - 1) return "it ends with a lone \\ (write \\\\ for a backslash)";
      i++;
    } else if ("[]{}".includes(char)) {
      return `"${char}" is reserved (write \\${char} to match it)`;
    }
  }
  return undefined;
}

/**
 * A matcher for a valid glob (check it with {@linkcode globProblem} first:
 * an invalid one throws a TypeError).
 *
 * @example
 * ```ts
 * globMatcher("get_*")("get_user"); // true
 * globMatcher("get_?")("get_ab"); // false
 * ```
 */
export function globMatcher(pattern: string): (name: string) => boolean {
  const problem = globProblem(pattern);
  if (problem !== undefined) throw new TypeError(`Invalid glob "${pattern}": ${problem}`);
  let source = "";
  const chars = [...pattern];
  for (let i = 0; i < chars.length; i++) {
    const char = chars[i];
    if (char === "*") source += "[^]*";
    else if (char === "?") source += "[^]";
    else source += escapeRegExp(char === "\\" ? chars[++i] : char);
  }
  const regexp = new RegExp(`^${source}$`, "u");
  return (name) => regexp.test(name);
}

function escapeRegExp(char: string): string {
  return /[\\^$.*+?()[\]{}|/]/.test(char) ? `\\${char}` : char;
}
