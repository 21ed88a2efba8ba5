/**
 * The help about sources is rendered from the launchers' descriptors and the
 * table of query keys: every launcher and every key shows, in lines that fit
 * 80 columns.
 */

import assert from "node:assert/strict";
import { catHelp, inspectHelp, sourcesSummary } from "../../lib/cli/source_help.ts";
import { LAUNCHERS } from "../../lib/launch/registry.ts";
import { QUERY_KEYS } from "../../lib/uri/query_keys.ts";

Deno.test("the source help lists each launcher and each query key with its help line", () => {
  for (const text of [inspectHelp(), catHelp("cat"), catHelp("head")]) {
    for (const launcher of LAUNCHERS) {
      assert.match(text, new RegExp(`\\n  ${escape(launcher.usage)} +${escape(launcher.help)}\\n`));
    }
    for (const key of QUERY_KEYS) {
      assert.match(text, new RegExp(`\\n  ${key.name}=${key.value} +${escape(key.help)}`));
    }
    for (const line of text.split("\n")) assert.ok(line.length <= 80, line);
  }
});

Deno.test("sourcesSummary() names every form and key in a few short lines", () => {
  const text = sourcesSummary();
  for (const launcher of LAUNCHERS) assert.ok(text.includes(launcher.usage), launcher.usage);
  for (const key of QUERY_KEYS) assert.match(text, new RegExp(`\\b${key.name}=`));
  assert.match(text, /list=tools\|resources\|templates\|prompts/);
  assert.match(text, /command=WORD \(repeatable, appended to the server's argv\)/);
  for (const line of text.split("\n")) assert.ok(line.startsWith("  ") && line.length <= 80, line);
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
