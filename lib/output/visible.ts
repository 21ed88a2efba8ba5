/**
 * Makes control characters visible, so that text from a server (or from any
 * file the user did not write) cannot drive the terminal it is printed on:
 * no escape sequences (colours, cursor moves, window titles, OSC 52 clipboard
 * writes, hyperlinks), no BEL, no carriage return that overwrites the start
 * of a line, no C1 controls, no bidirectional overrides that reorder what the
 * user reads.
 *
 * Rules (docs/output.md):
 * - C0 controls other than tab and newline, DEL and C1 (U+0080–U+009F) are
 *   shown as `\xNN`; a CR that ends a line (`\r\n`) is dropped;
 * - bidirectional controls (U+061C, U+200E, U+200F, U+202A–U+202E,
 *   U+2066–U+2069), the invisible format characters that can disguise a name
 *   (U+00AD soft hyphen, U+180E, U+200B–U+200D, U+2060–U+206F, U+FEFF) and
 *   the line/paragraph separators U+2028/U+2029 are shown as `\uNNNN`;
 * - tag characters (U+E0000–U+E007F: invisible, they can smuggle text past
 *   a reader) are shown as `\u{XXXXX}`;
 * - with `oneLine`, a newline is shown as `\n` too (names, titles, progress);
 * - everything else, including a backslash, is kept as it is: the text stays
 *   readable, and an escape typed literally by a server is harmless.
 *
 * `visible()` is applied to server text before jn adds its own colours;
 * {@linkcode terminalSafe} is the last line of defence where jn writes to
 * stderr, and {@linkcode jsonSafe} keeps NDJSON exact while hiding the same
 * characters from a terminal.
 *
 * @module
 */

/** Options of {@linkcode visible}. */
export interface VisibleOptions {
  /** Show newlines as `\n` too: for text that must stay on one line. */
  oneLine?: boolean;
}

// The character classes, written once (as strings: matching control characters is the point).
/** Bidirectional controls, invisible format characters, the line and paragraph separators. */
const BIDI =
  "\\u00ad\\u061c\\u180e\\u200b-\\u200f\\u2028\\u2029\\u202a-\\u202e\\u2060-\\u206f\\ufeff\\u{e0000}-\\u{e007f}";
/** C0 controls but tab and newline, DEL, C1, and BIDI. */
const CONTROL = `\\x00-\\x08\\x0b-\\x1f\\x7f-\\x9f${BIDI}`;

const CONTROLS = new RegExp(`[\\n${CONTROL}]`, "gu");
const ANY_CONTROL = new RegExp(`[\\n${CONTROL}]`, "u");

/**
 * The text with its control characters shown as escapes.
 *
 * @example
 * ```ts
 * visible("red \x1b[31m!\x07"); // "red \\x1b[31m!\\x07"
 * visible("a\nb", { oneLine: true }); // "a\\nb"
 * ```
 */
export function visible(text: string, options: VisibleOptions = {}): string {
  if (!ANY_CONTROL.test(text)) return text;
  const oneLine = options.oneLine === true;
  return text.replaceAll("\r\n", "\n").replace(CONTROLS, (char) => {
    if (char === "\n") return oneLine ? "\\n" : char;
    return escape(char);
  });
}

/** `\xNN` for a code point below U+0100 (but U+00AD), `\uNNNN` above, `\u{XXXXX}` past U+FFFF. */
function escape(char: string): string {
  const code = char.codePointAt(0) ?? 0;
  if (code > 0xffff) return `\\u{${code.toString(16)}}`;
  return code < 0xa0
    ? `\\x${code.toString(16).padStart(2, "0")}`
    : `\\u${code.toString(16).padStart(4, "0")}`;
}

/** The SGR sequences of jn's own `style()` (lib/output/style.ts): bold, dim, colours, resets. */
// deno-lint-ignore no-control-regex
const OWN_STYLE = new RegExp("^\\x1b\\[(?:1|2|22|31|33|36|39)m$");
const TERMINAL_CONTROL = new RegExp(`[${CONTROL}]`, "u");
const STYLE_OR_CONTROL = new RegExp(`\\x1b\\[\\d{1,2}m|[${CONTROL}]`, "gu");

/**
 * Last line of defence for text jn writes to a terminal: every control
 * character is made visible except newlines, tabs and — when `keepStyle` —
 * the exact colour sequences jn's own `style()` emits. Text that already went
 * through {@linkcode visible} passes unchanged.
 */
export function terminalSafe(text: string, keepStyle: boolean): string {
  if (!TERMINAL_CONTROL.test(text)) return text;
  return text.replaceAll("\r\n", "\n").replace(
    STYLE_OR_CONTROL,
    (match) => keepStyle && OWN_STYLE.test(match) ? match : visible(match),
  );
}

const JSON_UNSAFE = new RegExp(`[\\x7f-\\x9f${BIDI}]`, "gu");
const ANY_JSON_UNSAFE = new RegExp(`[\\x7f-\\x9f${BIDI}]`, "u");

/**
 * Serialized JSON with the characters `JSON.stringify` leaves raw but a
 * terminal would act on (DEL, C1, bidirectional controls, U+2028/U+2029)
 * written as `\uNNNN` escapes. The result parses to exactly the same value:
 * these characters can only occur inside strings, where the escape means the
 * same character. C0 controls are already escaped by `JSON.stringify`.
 *
 * @example
 * ```ts
 * jsonSafe(JSON.stringify({ t: "\u202eevil" })); // '{"t":"\\u202eevil"}'
 * ```
 */
export function jsonSafe(json: string): string {
  if (!ANY_JSON_UNSAFE.test(json)) return json;
  // A tag character is two UTF-16 units: each written as its own escape (JSON has no \u{…}).
  return json.replace(
    JSON_UNSAFE,
    (char) =>
      [...Array(char.length).keys()]
        .map((i) => `\\u${char.charCodeAt(i).toString(16).padStart(4, "0")}`).join(""),
  );
}

/**
 * A JSON-like value with every string (keys too) passed through
 * {@linkcode visible} on one line: for data about to be formatted as text.
 */
export function visibleDeep<T>(value: T): T {
  const walk = (node: unknown): unknown => {
    if (typeof node === "string") return visible(node, { oneLine: true });
    if (Array.isArray(node)) return node.map(walk);
    if (node !== null && typeof node === "object") {
      return Object.fromEntries(
        Object.entries(node).map(([key, item]) => [visible(key, { oneLine: true }), walk(item)]),
      );
    }
    return node;
  };
  return walk(value) as T;
}

/**
 * {@linkcode visible} on one line: for names, paths and one-line notices.
 *
 * @example
 * ```ts
 * visibleLine("evil\x1b[2J\u202e.json\n"); // "evil\\x1b[2J\\u202e.json\\n"
 * ```
 */
export function visibleLine(text: string): string {
  return visible(text, { oneLine: true });
}

/**
 * Names a server chose (its tools, prompts, arguments), each on one line
 * ({@linkcode visibleLine}) and joined with `separator`: for a message's
 * list, which a newline in one name must not break across lines.
 *
 * @example
 * ```ts
 * visibleNames(["greet", "two\nlines"]); // "greet, two\\nlines"
 * ```
 */
export function visibleNames(names: Iterable<string>, separator = ", "): string {
  return [...names].map(visibleLine).join(separator);
}
