/**
 * `jn put @server` (a target with no tool): each record names its
 * operation, and the operations run in input order over one connection — so
 * a server whose state lives in its process (tests/fixtures/servers/
 * kv_store.mjs) keeps it from one record to the next, and loses it between
 * runs. Records are those `jn cat` prints for each operation, with `input`.
 */

import assert from "node:assert/strict";
import { open, put, type PutOptions, UsageError } from "../../mod.ts";
import { parseNdjson, ROOT, runJnHere } from "../helpers.ts";
import { HOSTILE } from "../session/tree_support.ts";
import { KV, ndjson } from "./put_helpers.ts";

type Rec = Record<string, unknown>;

const set = (key: string, value: unknown) => ({ tool: "set", arguments: { key, value } });
const get = (key: string) => ({ tool: "get", arguments: { key } });

Deno.test("put @server runs set then get over one connection: the server's state carries", async (t) => {
  const input = ndjson([
    set("colour", "blue"),
    get("colour"),
    set("colour", { rgb: [0, 0, 255] }),
    { resource: "kv://store" },
    { tool: "keys", _note: "bookkeeping is never sent" },
  ]);
  const { code, stdout, stderr } = await runJnHere(["put", "--json", KV], { stdin: input });
  assert.equal(code, 0, stderr);
  const records = parseNdjson(stdout) as Rec[];
  assert.deepEqual(records.slice(0, 4), [
    { input: 1, key: "colour", previous: null },
    { input: 2, key: "colour", value: "blue" },
    { input: 3, key: "colour", previous: "blue" },
    { input: 4, colour: { rgb: [0, 0, 255] } },
  ]);
  assert.deepEqual([records[4].input, records[4].keys], [5, ["colour"]]);
  assert.match(stderr, /^jn put kv_store\.mjs: 5 records, 5 calls, 0 errors in /);

  await t.step("a second run starts a new server: what the first one set is gone", async () => {
    const again = await runJnHere(["put", "-q", KV], { stdin: ndjson([get("colour")]) });
    assert.equal(again.code, 1);
    assert.deepEqual(parseNdjson(again.stdout), [{
      type: "error",
      input: 1,
      tool: "get",
      kind: "tool_error",
      error: 'Tool "get" answered with an error: no key "colour"',
      content: [{ type: "text", text: 'no key "colour"' }],
    }]);
  });
});

Deno.test("put @demo: a tool, a resource, a prompt and a list give cat's records, numbered by line", async () => {
  const input = [
    JSON.stringify({ tool: "add", arguments: { a: 2, b: 40 } }),
    "",
    JSON.stringify({ resource: "demo://items/3" }),
    JSON.stringify({ _row: 7, prompt: "summarize", arguments: { topic: "MCP" } }),
    "   ",
    JSON.stringify({ list: "prompts" }),
  ].join("\n") + "\n";
  const { code, stdout, stderr } = await runJnHere(["put", "-q", "@demo"], { stdin: input });
  assert.equal(code, 0, stderr);
  const records = parseNdjson(stdout) as Rec[];
  assert.deepEqual(records.map((r) => [r.input, r.type]), [
    [1, "tool_result"],
    [1, "structured_result"],
    [3, "resource_content"],
    [4, "prompt_message"],
    [6, "prompt"],
  ]);
  // Each the same as `jn cat` of that operation, with input after type.
  const cat = async (source: string) =>
    parseNdjson((await runJnHere(["cat", source])).stdout) as Rec[];
  const numbered = (input: number, record: Rec) => {
    const { type, ...rest } = record;
    return { type, input, ...rest };
  };
  const expected = [
    ...(await cat("@demo/add?a=2&b=40")).map((r) => numbered(1, r)),
    ...(await cat("@demo?resource=demo://items/3")).map((r) => numbered(3, r)),
    ...(await cat("@demo?prompt=summarize&topic=MCP")).map((r) => numbered(4, r)),
    ...(await cat("@demo?list=prompts")).map((r) => numbered(6, r)),
  ];
  assert.deepEqual(records, expected);
  assert.deepEqual(Object.keys(records[0]).slice(0, 2), ["type", "input"]);
});

Deno.test("put @server --fail-fast stops at the first failed record: nothing after it runs", async () => {
  const input = ndjson([set("a", 1), get("missing"), set("b", 2), { tool: "keys" }]);
  const { code, stdout, stderr } = await runJnHere(["put", "--fail-fast", "--json", KV], {
    stdin: input,
  });
  assert.equal(code, 1, stderr);
  const records = parseNdjson(stdout) as Rec[];
  assert.deepEqual(records.map((r) => [r.input, r.kind ?? "ok"]), [[1, "ok"], [2, "tool_error"]]);
  assert.match(stderr, /: 2 records, 2 calls, 1 error in /);

  // Without it, the run goes on past the failure: b is set and listed.
  const all = await runJnHere(["put", "-q", "--json", KV], { stdin: input });
  assert.equal(all.code, 1);
  const out = parseNdjson(all.stdout) as Rec[];
  assert.deepEqual(out.map((r) => r.input), [1, 2, 3, 4]);
  assert.deepEqual(out[3].keys, ["a", "b"]);
});

Deno.test("put @server: --max-timeouts stops the requests; the rest are not_attempted, naming their operation", async () => {
  const input = ndjson([
    { tool: "hang" },
    { tool: "hang" },
    { tool: "echo", arguments: { text: "x" } },
    { resource: "hostile://r" },
    { nothing: true },
  ]);
  const { code, stdout } = await runJnHere(
    ["put", "-q", "--timeout", "300ms", "--max-timeouts", "2", `mcp+node://${HOSTILE}`],
    { stdin: input, timeoutMs: 30_000 },
  );
  assert.equal(code, 1);
  const records = parseNdjson(stdout) as Rec[];
  assert.deepEqual(records.map((r) => [r.input, r.kind]), [
    [1, "timeout"],
    [2, "timeout"],
    [3, "not_attempted"],
    [4, "not_attempted"],
    [5, "not_attempted"],
  ]);
  assert.deepEqual(records.slice(2).map((r) => [r.tool, r.resource]), [
    ["echo", undefined],
    [undefined, "hostile://r"],
    [undefined, undefined],
  ]);
});

Deno.test("put @server: a server that dies mid-run gives connection, then not_called records, exit 4", async () => {
  const input = ndjson([{ tool: "exit_mid" }, { tool: "echo" }, { list: "tools" }]);
  const { code, stdout, stderr } = await runJnHere(
    ["put", "-q", `mcp+node://${HOSTILE}`],
    { stdin: input, timeoutMs: 30_000 },
  );
  assert.equal(code, 4, stderr);
  const records = parseNdjson(stdout) as Rec[];
  assert.deepEqual(records.map((r) => [r.input, r.kind, r.tool ?? r.list]), [
    [1, "connection", "exit_mid"],
    [2, "not_called", "echo"],
    [3, "not_called", "tools"],
  ]);
});

Deno.test("put @server: operations run one at a time; -c above 1 and shared arguments are usage errors", async (t) => {
  await t.step("-c 1 is accepted", async () => {
    const { code } = await runJnHere(["put", "-q", "-c", "1", KV], { stdin: ndjson([get("x")]) });
    assert.equal(code, 1); // the record failed: no such key
  });
  const cases: [string, string[], RegExp][] = [
    [
      "-c 4",
      ["put", "-c", "4", KV],
      /^jn: Records that name their operation run in order, one at a time: --concurrency 4 does not apply\nhint: drop --concurrency; to call one tool K at a time, put to it \(@server\/TOOL\)\n$/,
    ],
    ["--arg", ["put", "--arg", "key=a", KV], /carry their own arguments: --arg, --args/],
    ["--args", ["put", "--args", '{"key":"a"}', KV], /carry their own arguments/],
    ["a query argument", ["put", `${KV}?key=a`], /carry their own arguments/],
  ];
  for (const [name, args, message] of cases) {
    await t.step(name, async () => {
      const { code, stdout, stderr } = await runJnHere(args, { stdin: ndjson([get("a")]) });
      assert.deepEqual([code, stdout], [2, ""]);
      assert.match(stderr, message);
    });
  }
});

Deno.test("put(conn, records) runs each record's operation in order; the library refuses concurrency and args", async () => {
  await using conn = await open(KV, { cwd: ROOT, env: Deno.env.toObject() });
  const out: Rec[] = [];
  for await (const record of put(conn, [set("n", 1), get("n"), { list: "resources" }])) {
    out.push(record);
  }
  assert.deepEqual(out.map((r) => [r.input, r.type]), [
    [1, "tool_result"],
    [1, "structured_result"],
    [2, "tool_result"],
    [2, "structured_result"],
    [3, "resource"],
  ]);
  assert.deepEqual(out[3].data, { key: "n", value: 1 });
  const refused = async (options: PutOptions) => {
    const run = put(conn, [get("n")], options as Omit<PutOptions, "concurrency" | "args">);
    await assert.rejects(() => run.next(), UsageError);
  };
  await refused({ concurrency: 2 });
  await refused({ args: { key: "n" } });
});
