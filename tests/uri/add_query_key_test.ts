/**
 * Adding a query key is one row of the table in lib/uri/query_keys.ts: in a
 * copy of jn's source, a throwaway `call=NAME` (an alias of `tool=`) is
 * parsed, counts as one of the keys that select an operation, is reserved,
 * and shows in the help (once `deno task tables` has run), with nothing
 * else changed.
 */

import assert from "node:assert/strict";
import { parseNdjson } from "../helpers.ts";
import { repoCopy } from "../repo_copy.ts";

const ROW = `  {
    kind: "operation",
    name: "call",
    value: "NAME",
    help: "call a tool, like tool= (a throwaway key)",
    repeatable: false,
    read: (value, ctx) => ({ kind: "tool", name: nonEmpty(value, "tool name", ctx) }),
  },
];

/** The key jn reads under`;

Deno.test("a query key is added with one row of the table", async (t) => {
  await using copy = await repoCopy();
  await copy.edit("lib/uri/query_keys.ts", "];\n\n/** The key jn reads under", ROW);

  await t.step("parsed: it selects the operation its row reads", async () => {
    const run = await copy.jn(["cat", "@demo?call=echo&text=hi"]);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(parseNdjson(run.stdout), [
      { type: "tool_result", tool: "echo", content_type: "text", text: "hi" },
    ]);
  });
  await t.step("one of the keys that select an operation", async () => {
    const run = await copy.jn(["cat", "@demo?call=echo&prompt=summarize"]);
    assert.equal(run.code, 2);
    assert.match(
      run.stderr,
      /hint: give at most one of tool, resource, prompt, list, task and call/,
    );
  });
  await t.step("reserved: a tool's own argument of that name goes in --arg", async () => {
    const run = await copy.deno([
      "eval",
      `import { isReservedKey } from "./lib/uri/reserved.ts"; console.log(isReservedKey("call"));`,
    ]);
    assert.equal(run.stdout, "true\n", run.stderr);
  });
  await t.step("in the help, once regenerated (deno task tables)", async () => {
    const tables = await copy.deno(["task", "-q", "tables"]);
    assert.equal(tables.code, 0, tables.stderr);
    const help = await copy.jn(["cat", "--help"]);
    assert.match(help.stdout, /\n {2}call=NAME +call a tool, like tool= \(a throwaway key\)\n/);
  });
});
