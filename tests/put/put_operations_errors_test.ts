/**
 * `jn put @server`: every way a record can fail is one error record
 * (`{"type":"error","input":N,…,"kind","error"}`, naming its operation when
 * the record names a valid one) and the run goes on; the policy of a single
 * call holds per record (strict arguments, a profile's tool names and
 * defaults, allow_tools/deny_tools, a profile tool gone is drift).
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { FIXTURES, parseNdjson, runJnHere } from "../helpers.ts";
import { sandbox } from "../profile/sandbox.ts";
import { KV } from "./put_helpers.ts";

type Rec = Record<string, unknown>;

/** Runs `jn put -q TARGET` with one line per input, and gives the records. */
async function put(target: string, lines: string[], flags: string[] = []): Promise<Rec[]> {
  const { code, stdout, stderr } = await runJnHere(["put", "-q", ...flags, target], {
    stdin: lines.join("\n") + "\n",
  });
  const records = parseNdjson(stdout) as Rec[];
  assert.equal(code, records.some((r) => r.type === "error") ? 1 : 0, stderr);
  return records;
}

Deno.test("put @server: a record that names no valid operation is an invalid_operation record", async () => {
  const lines = [
    "not json",
    "[1, 2]",
    "{}",
    '{"tools": "keys"}',
    '{"tool": "get", "resource": "kv://store"}',
    '{"tool": 5}',
    '{"tool": ""}',
    '{"tool": "get", "args": {"key": "a"}}',
    '{"tool": "get", "limit": 1}',
    '{"tool": "get", "arguments": [1]}',
    '{"tool": "keys", "arguments": null}',
    '{"resource": "kv://store", "arguments": {}}',
    '{"list": "tool"}',
    '{"tool": "keys", "_row": 12}',
  ];
  const records = await put(KV, lines);
  const error = (kind: string, text: string, extra: Rec = {}) => ({
    type: "error",
    ...extra,
    kind,
    error: text,
  });
  const invalid = (text: string, hint: string, subject: Rec = {}) =>
    error("invalid_operation", text, { ...subject, hint });
  const none = 'No operation: the record names none of "tool", "resource", "prompt" or "list"';
  assert.deepEqual(records.slice(0, 13).map(({ input: _, ...rest }) => rest), [
    error("invalid_json", `Not JSON: Unexpected token 'o', "not json" is not valid JSON`, {
      line: "not json",
    }),
    error("not_object", "Not a JSON object: got an array", { line: "[1, 2]" }),
    invalid(none, 'e.g. {"tool": "NAME", "arguments": {…}} or {"resource": "URI"}'),
    invalid(none, '"tools" is not one: did you mean "tool"?'),
    invalid(
      'Two operations: the record names "tool" and "resource"',
      "give one operation per record, one record per line",
    ),
    error("invalid_operation", '"tool" must be a string, got a number'),
    error("invalid_operation", "Invalid operation: tool name is empty", { tool: "" }),
    invalid('Unknown field "args" beside "tool"', 'did you mean "arguments"?', { tool: "get" }),
    invalid(
      'Unknown field "limit" beside "tool"',
      'a record names one operation and its "arguments"; fields starting with _ are ignored',
      { tool: "get" },
    ),
    error("invalid_operation", '"arguments" must be an object, got an array', { tool: "get" }),
    error("invalid_operation", '"arguments" must be an object, got null', { tool: "keys" }),
    error("invalid_operation", 'A resource takes no "arguments"', { resource: "kv://store" }),
    invalid('Invalid operation: unknown list kind "tool"', "did you mean list=tools?", {
      list: "tool",
    }),
  ]);
  assert.deepEqual([...new Set(records.map((r) => r.input))], lines.map((_, i) => i + 1));
  assert.equal(records[13].type, "tool_result", "the run goes on, _ keys ignored");
});

Deno.test("put @server: unknown tools and prompts name the closest; bad arguments are not sent", async () => {
  const records = await put("@demo", [
    '{"tool": "ad", "arguments": {"a": 1, "b": 2}}',
    '{"tool": "add", "arguments": {"a": "1", "b": 2}}',
    '{"tool": "add", "arguments": {"a": 1, "b": 2, "c": 3}}',
    '{"prompt": "sumarize", "arguments": {"topic": "x"}}',
    '{"prompt": "summarize"}',
    '{"prompt": "summarize", "arguments": {"topic": "x", "topc": "y"}}',
    '{"resource": "demo://item/3"}',
    '{"tool": "fail", "arguments": {"message": "on purpose"}}',
  ]);
  const pick = (r: Rec) => [r.input, r.tool ?? r.prompt ?? r.resource, r.kind, r.error, r.hint];
  assert.deepEqual(records.map(pick), [
    [1, "ad", "unknown_tool", 'Tool "ad" not found on server "@demo"', 'did you mean "add"?'],
    [
      2,
      "add",
      "invalid_arguments",
      'Invalid arguments for tool "add": a must be number',
      undefined,
    ],
    [
      3,
      "add",
      "invalid_arguments",
      'Invalid arguments for tool "add": c is unknown: did you mean "a"?',
      undefined,
    ],
    [
      4,
      "sumarize",
      "unknown_prompt",
      'Prompt "sumarize" not found on server "@demo"',
      'did you mean "summarize"?',
    ],
    [5, "summarize", "invalid_arguments", 'Prompt "summarize" needs "topic"', undefined],
    [
      6,
      "summarize",
      "invalid_arguments",
      'Unknown argument "topc" for prompt "summarize": did you mean "topic"?',
      undefined,
    ],
    [
      7,
      "demo://item/3",
      "rpc_error",
      records[6].error,
      'did you mean "demo://items/3"?',
    ],
    [8, "fail", "tool_error", 'Tool "fail" answered with an error: on purpose', undefined],
  ]);
  assert.deepEqual(records[1].record, { tool: "add", arguments: { a: "1", b: 2 } });
  assert.deepEqual(records[1].violations, [{ path: "a", message: "must be number", value: "1" }]);

  const kv = await put(KV, [
    '{"tool": "set", "arguments": {"key": "a"}}',
    '{"tool": "set", "arguments": {"key": "b", "value": 1, "valeu": 2}}',
    '{"tool": "keys"}',
  ], ["--json"]);
  assert.deepEqual(kv.map((r) => r.kind ?? r.keys), [
    "invalid_arguments",
    "invalid_arguments",
    [],
  ], "neither set was sent: the store is empty");
  assert.equal(kv[0].error, 'Invalid arguments for tool "set": value is required');

  const allowed = await put("@demo", [
    '{"prompt": "summarize", "arguments": {"topic": "x", "tone": "dry"}}',
  ], ["--allow-unknown"]);
  assert.equal(allowed[0].type, "prompt_message", "--allow-unknown sends it");
});

Deno.test("put @profile: the profile's tool names, defaults and curation hold per record", async () => {
  const box = await sandbox({ here: true });
  try {
    const dir = join(box.user, "kv");
    await box.write(
      join(dir, "_meta.json"),
      JSON.stringify({
        command: "node",
        args: [`${FIXTURES}/servers/kv_store.mjs`],
        deny_tools: ["delete"],
      }),
    );
    await box.write(join(dir, "remember.json"), '{"tool": "set", "defaults": {"key": "k"}}');
    await box.write(join(dir, "gone.json"), '{"tool": "vanished"}');
    const lines = [
      { tool: "remember", arguments: { value: 1 } },
      { tool: "get", arguments: { key: "k" } },
      { tool: "delete", arguments: { key: "k" } },
      { tool: "gone" },
      { list: "tools" },
      { tool: "remember", arguments: { key: "z", value: 2 } },
      { tool: "get", arguments: { key: "z" } },
    ];
    const { code, stdout, stderr } = await box.run(["put", "-q", "--json", "@kv"], {
      stdin: lines.map((line) => JSON.stringify(line)).join("\n") + "\n",
    });
    assert.equal(code, 1, stderr);
    const records = parseNdjson(stdout) as Rec[];
    const [set, got, denied, gone, ...rest] = records;
    assert.deepEqual(set, { input: 1, key: "k", previous: null }, "remember is set with key k");
    assert.deepEqual(got, { input: 2, key: "k", value: 1 });
    assert.deepEqual([denied.kind, denied.tool, denied.error], [
      "unknown_tool",
      "delete",
      'Tool "delete" not found on server "@kv"',
    ]);
    assert.doesNotMatch(String(denied.hint), /delete/, "a denied tool is not suggested");
    assert.deepEqual([gone.kind, gone.tool], ["drift", "gone"]);
    assert.match(String(gone.error), /^Tool "gone" \(the server's "vanished"\) of @kv is gone/);
    assert.match(String(gone.hint), /jn profile diff @kv/);
    const listed = rest.filter((r) => r.input === 5).map((r) => r.name);
    assert.deepEqual(listed, ["set", "get", "keys"], "the listing leaves out the denied tool");
    assert.deepEqual(rest.filter((r) => r.input !== 5), [
      { input: 6, key: "z", previous: null },
      { input: 7, key: "z", value: 2 },
    ], "a record's arguments win over the profile's defaults");
  } finally {
    await box.dispose();
  }
});
