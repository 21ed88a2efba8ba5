/**
 * Text from a repository (file names, server entry names, arguments) shown
 * to a person: control characters, and the format characters that reorder or
 * hide text on a terminal, are written as escapes (`\x1b`, `\u202e`), so a
 * hostile name cannot move the cursor, recolour the terminal or disguise
 * itself as another name.
 *
 * @module
 */

// C0 and C1 controls, DEL, and the Unicode bidi/zero-width format characters:
// matching control characters is the point of this pattern.
// deno-lint-ignore no-control-regex
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g;

/**
 * The text with every control or invisible format character escaped.
 *
 * @example
 * visible("evil\x1b[2J.json"); // "evil\\x1b[2J.json"
 */
export function visible(text: string): string {
  return text.replace(INVISIBLE, (char) => {
    const code = char.charCodeAt(0);
    return code <= 0xff
      ? `\\x${code.toString(16).padStart(2, "0")}`
      : `\\u${code.toString(16).padStart(4, "0")}`;
  });
}
