/**
 * Every command the docs name in inline code (`jn cat …`, `profile update`,
 * `jn mcp schema`, `profile validate|diff|update`) is a command of jn's table:
 * a renamed or imagined command (`profile drift`) fails here, not in a
 * reader's shell.
 *
 * @module
 */

import * as assert from "node:assert/strict";
import { COMMANDS, GROUPS } from "../../lib/cli/table/commands.ts";
import { ROOT } from "../helpers.ts";

/** The words of commands and groups: `cat`, `profile list`, `mcp`, … */
const KNOWN = new Set([
  ...COMMANDS.map((c) => c.path.join(" ")),
  ...GROUPS.map((g) => g.path.join(" ")),
]);
const GROUP_WORDS = GROUPS.map((g) => g.path[0]);

/** The commands an inline code span names: `jn WORD [SUB]`, or `GROUP SUB` alone. */
export function namedCommands(span: string): string[] {
  const words = span.trim().split(/\s+/);
  if (words[0] === "jn") words.shift();
  else if (!GROUP_WORDS.includes(words[0])) return [];
  const [first, second] = words;
  if (first === undefined || !/^[a-z][a-z-]*$/.test(first)) return [];
  if (!GROUP_WORDS.includes(first)) return [first];
  if (second === undefined || !/^[a-z][a-z-]*([|/][a-z][a-z-]*)*$/.test(second)) return [first];
  return second.split(/[|/]/).map((sub) => `${first} ${sub}`);
}

async function docFiles(): Promise<string[]> {
  const files = ["README.md", "CONTRIBUTING.md"];
  for await (const entry of Deno.readDir(`${ROOT}/docs`)) {
    if (entry.name.endsWith(".md")) files.push(`docs/${entry.name}`);
  }
  return files.sort();
}

Deno.test("every command the docs name in inline code exists", async () => {
  const unknown: string[] = [];
  for (const file of await docFiles()) {
    const lines = (await Deno.readTextFile(`${ROOT}/${file}`)).split("\n");
    lines.forEach((line, i) => {
      for (const match of line.matchAll(/`([^`\n]+)`/g)) {
        for (const name of namedCommands(match[1])) {
          if (!KNOWN.has(name)) {
            unknown.push(`${file}:${i + 1}: \`${match[1]}\` names "${name}"`);
          }
        }
      }
    });
  }
  assert.deepEqual(unknown, []);
});

Deno.test("namedCommands() reads the forms the docs use", () => {
  assert.deepEqual(namedCommands("jn cat SRC"), ["cat"]);
  assert.deepEqual(namedCommands("profile drift"), ["profile drift"]);
  assert.deepEqual(namedCommands("profile validate|diff|update"), [
    "profile validate",
    "profile diff",
    "profile update",
  ]);
  assert.deepEqual(namedCommands("jn mcp schema @demo add"), ["mcp schema"]);
  assert.deepEqual(namedCommands("jn @demo"), []);
  assert.deepEqual(namedCommands("cat file"), []);
});
