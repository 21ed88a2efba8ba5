/**
 * The help text about sources that ends `inspect`, `cat`, `head` and `tail`,
 * rendered from the two tables that define them — the launchers
 * (lib/launch/registry.ts) and the query keys (lib/uri/query_keys.ts) — with
 * examples that run against the bundled `@demo` profile; and the short form
 * of the same for the help footer ({@linkcode sourcesSummary}).
 *
 * @module
 */

import { LAUNCHERS } from "../launch/registry.ts";
import { QUERY_KEYS, type QueryKey } from "../uri/query_keys.ts";

const PROFILE_FORM = "@profile[/tool]";

/** The forms of a SOURCE (one line per launcher, then profiles) and its query keys. */
export function sourceHelp(): string {
  const forms: [string, string][] = [
    ...LAUNCHERS.map((launcher): [string, string] => [launcher.usage, launcher.help]),
    [PROFILE_FORM, "a saved profile (jn profile list), its tool"],
  ];
  const keys: [string, string][] = QUERY_KEYS.map((key) => [
    `${key.name}=${key.value}`,
    keyHelp(key),
  ]);
  keys.push([
    "any other key",
    "an argument of the tool or prompt, converted to the type its schema " +
    "declares; a tool's own argument named like a key above goes in --arg KEY=VALUE",
  ]);
  return `
Sources:
${columns(forms)}

Query keys (SOURCE?key=value&…):
${columns(keys)}`;
}

/**
 * The sources and query keys in a few lines, for the end of `jn --help`.
 *
 * @example
 * ```ts
 * sourcesSummary();
 * // "  mcp+uvx://PKG[/CMD]   mcp+npx://PKG   …\n  Query keys: tool=NAME, …; other keys are arguments."
 * ```
 */
export function sourcesSummary(): string {
  const forms = [...LAUNCHERS.map((launcher) => launcher.usage), PROFILE_FORM];
  const keys = QUERY_KEYS.map((key) => {
    const value = key.kind === "operation" && key.values ? key.values.join("|") : key.value;
    const notes = [
      key.repeatable ? "repeatable" : undefined,
      key.kind === "argv" ? "appended to the server's argv" : undefined,
      key.kind === "refines" ? `with ${key.refines}=` : undefined,
    ].filter((note) => note !== undefined);
    return `${key.name}=${value}${notes.length > 0 ? ` (${notes.join(", ")})` : ""}`;
  });
  return [
    ...fill(forms, "   "),
    ...fill(`Query keys: ${keys.join(", ")}; other keys are arguments.`.split(" "), " "),
  ].map((line) => `  ${line}`).join("\n");
}

/** The examples of `cat` (`head` and `tail` take the same sources). */
export function catHelp(name: "cat" | "head" | "tail"): string {
  const lines = name === "cat"
    ? [
      `jn cat "@demo/echo?text=hi&repeat=2"`,
      `jn cat --json "@demo/list_items?count=3"`,
      `jn cat --arg text=hi --arg repeat=2 @demo/echo`,
      `jn cat "@demo?resource=demo://readme"`,
      `jn cat --json "@demo?resource=demo://items/3"`,
      `jn cat "@demo?prompt=summarize&topic=MCP"`,
      `jn cat "@demo?list=tools"`,
      `jn cat "@demo?resource=demo://ticker" --follow --timeout 3s`,
    ]
    : [`jn ${name} -n 3 --json "@demo/list_items?count=20"`, `jn ${name} "@demo?list=tools"`];
  return `${sourceHelp()}\n\nExamples:\n${lines.map((line) => `  ${line}`).join("\n")}`;
}

/** The help that ends `inspect`. */
export function inspectHelp(): string {
  return `${sourceHelp()}

Examples:
  jn inspect @demo
  jn inspect --format json @demo
  jn inspect "mcp+npx://@modelcontextprotocol/server-everything"`;
}

function keyHelp(key: QueryKey): string {
  const notes = [
    key.kind === "argv" ? "naked URIs" : undefined,
    key.kind === "refines" ? `with ${key.refines}= only` : undefined,
    key.repeatable ? "repeatable" : undefined,
  ].filter((note) => note !== undefined);
  return notes.length > 0 ? `${key.help} (${notes.join("; ")})` : key.help;
}

/** Two columns, the second wrapped to fit 80 characters. */
function columns(rows: [string, string][]): string {
  const width = Math.max(...rows.map(([left]) => left.length)) + 2;
  return rows.map(([left, right]) => {
    const lines = fill(right.split(" "), " ", 78 - width);
    return [
      `  ${left.padEnd(width)}${lines[0]}`,
      ...lines.slice(1).map((line) => `  ${" ".repeat(width)}${line}`),
    ]
      .join("\n");
  }).join("\n");
}

/** `words` joined by `gap` into lines of at most `max` characters. */
function fill(words: string[], gap: string, max = 78): string[] {
  const lines: string[] = [];
  for (const word of words) {
    const last = lines.at(-1);
    if (last !== undefined && last.length + gap.length + word.length <= max) {
      lines[lines.length - 1] = `${last}${gap}${word}`;
    } else lines.push(word);
  }
  return lines;
}
