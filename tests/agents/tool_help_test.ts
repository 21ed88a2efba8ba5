/**
 * One tool's help (lib/client/tool_help.ts, lib/output/tool_help.ts): live
 * from the demo server through a profile tool that calls another server
 * tool, offline from a profile's saved snapshot (no server started), with
 * the profile's notes, examples and tested_with, secrets never shown and
 * server text made visible.
 */

import assert from "node:assert/strict";
import { open, type ToolHelp, toolHelp, UsageError } from "../../mod.ts";
import { savedToolHelp } from "../../mod/output.ts";
import { formatToolHelp } from "../../lib/output/tool_help.ts";
import { style } from "../../lib/output/style.ts";
import { baseEnv, tempDir } from "../helpers.ts";

const plain = style(false);

Deno.test("toolHelp() explains a profile tool from the live server, with the profile's notes", async () => {
  await using conn = await open("@demo/items", { cwd: Deno.cwd(), env: baseEnv() });
  const help = await toolHelp(conn);
  assert.equal(help.type, "tool_help");
  assert.equal(help.source, "@demo");
  assert.equal(help.name, "items");
  assert.equal(help.tool, "list_items");
  assert.equal(help.origin, "live");
  assert.equal(help.signature, "items(count?: integer = 5, prefix?: string)");
  assert.deepEqual(help.profile?.defaults, { count: 3, prefix: "demo" });
  assert.deepEqual(help.profile?.examples, [{ input: { count: 2 } }]);
  assert.match(help.description ?? "", /Returns a JSON array of items/);
  const text = formatToolHelp(help, plain);
  for (
    const part of [
      "calls the server's tool list_items",
      "  count?: integer = 5 — How many items to return (default 5); ≥ 0, ≤ 10000",
      "Output format: application/json",
      'Profile defaults: {"count":3,"prefix":"demo"}',
      'Examples:\n  {"count":2}',
      '"maximum": 10000',
    ]
  ) assert.ok(text.includes(part), `${part}\nnot in\n${text}`);

  const add = await toolHelp(conn, "add");
  assert.equal(add.signature, "add(a: number, b: number) → {sum: number}");
  assert.equal(add.profile, undefined);
  await assert.rejects(toolHelp(conn, "ad"), (error: Error) => {
    assert.ok(error instanceof UsageError);
    assert.match(error.hint ?? "", /"add"/);
    return true;
  });
});

Deno.test("savedToolHelp() reads the profile's snapshot without starting the server; secrets stay hidden", async () => {
  const home = await tempDir("jn-help-home-");
  try {
    const dir = `${home}/.local/jn/profiles/mcp/offline`;
    await Deno.mkdir(dir, { recursive: true });
    // A server that cannot start: the help must not need it.
    await Deno.writeTextFile(
      `${dir}/_meta.json`,
      JSON.stringify({ command: "/nonexistent/server" }),
    );
    await Deno.writeTextFile(
      `${dir}/search.json`,
      JSON.stringify({
        tool: "gene_search",
        description: "Search genes",
        notes: "Returns prose; token ${JN_HELP_SECRET} is sent along",
        examples: [{ input: { gene: "BRAF" }, output_sample: "BRAF V600E is common. More." }],
        tested_with: ["BRAF", "TP53"],
        inputSchema: {
          type: "object",
          properties: { gene: { type: "string" }, limit: { type: "integer", default: 10 } },
          required: ["gene"],
        },
      }),
    );
    await Deno.writeTextFile(`${dir}/bare.json`, JSON.stringify({ description: "no snapshot" }));
    const options = { cwd: home, env: { ...baseEnv(), HOME: home, JN_HELP_SECRET: "hunter2" } };
    const help = await savedToolHelp("@offline/search", options) as ToolHelp;
    assert.equal(help.origin, "profile");
    assert.equal(help.name, "search");
    assert.equal(help.tool, "gene_search");
    assert.equal(help.signature, "search(gene: string, limit?: integer = 10)");
    assert.deepEqual(help.profile?.tested_with, ["BRAF", "TP53"]);
    assert.doesNotMatch(JSON.stringify(help), /hunter2/);
    const text = formatToolHelp(help, plain);
    assert.match(text, /Notes:\n {2}Returns prose; token \*\*\* is sent along/);
    assert.match(text, /Examples:\n {2}\{"gene":"BRAF"\}\n {4}→ BRAF V600E is common\./);
    assert.match(text, /Tested with:\n {2}BRAF\n {2}TP53/);
    assert.match(text, /Input schema \(the profile's snapshot\):/);
    assert.equal(await savedToolHelp("@offline/bare", options), undefined);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("the help's text shows server text with its control characters visible", () => {
  const hostile = "\x1b]0;pwned\x07\u202eevil";
  const text = formatToolHelp({
    type: "tool_help",
    source: "x",
    name: "t",
    tool: "t",
    origin: "live",
    signature: `t(p${hostile}: string)`,
    description: `line one${hostile}\nline two`,
    inputSchema: { type: "object", properties: { [`p${hostile}`]: { description: hostile } } },
  }, plain);
  // deno-lint-ignore no-control-regex
  assert.doesNotMatch(text, /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202e]/);
  assert.match(text, /line one\\x1b\]0;pwned\\x07\\u202eevil\nline two/);
});
