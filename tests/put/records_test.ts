import assert from "node:assert/strict";
import { ProtocolError } from "../../lib/errors.ts";
import { callFailure, numberedLines } from "../../lib/put/records.ts";
import { readOperation } from "../../lib/put/operation.ts";
import { putMode, putTarget } from "../../lib/client/put_target.ts";

Deno.test("numberedLines() puts input right after type, or wraps what cannot take it", () => {
  const cases: [unknown, string][] = [
    [
      { type: "tool_result", tool: "t", text: "x" },
      '{"type":"tool_result","input":3,"tool":"t","text":"x"}',
    ],
    [{ type: "only" }, '{"type":"only","input":3}'],
    [{ id: 1, type: "late" }, '{"input":3,"id":1,"type":"late"}'],
    [{}, '{"input":3}'],
    [{ input: "theirs" }, '{"input":3,"value":{"input":"theirs"}}'],
    [[1, 2], '{"input":3,"value":[1,2]}'],
    ["text", '{"input":3,"value":"text"}'],
    [null, '{"input":3,"value":null}'],
  ];
  for (const [record, expected] of cases) assert.equal(numberedLines([record], 3), expected + "\n");
  assert.equal(numberedLines([1, 2], 9), '{"input":9,"value":1}\n{"input":9,"value":2}\n');
});

Deno.test("callFailure() treats a protocol error met twice as the end of the session", () => {
  const seen = new WeakSet<object>();
  const garbled = new ProtocolError("The server wrote malformed JSON to stdout");
  const first = callFailure(1, { tool: "t" }, { error: garbled, seen });
  const second = callFailure(2, { tool: "t" }, { error: garbled, seen });
  assert.deepEqual([first.record.kind, first.fatal], ["protocol", false]);
  assert.deepEqual([second.record.kind, second.fatal], ["protocol", true]);
  const rpc = callFailure(3, { tool: "t" }, {
    error: new ProtocolError("x", { code: -32602 }),
    seen,
  });
  assert.deepEqual([rpc.record.kind, rpc.record.code, rpc.fatal], ["rpc_error", -32602, false]);
  assert.throws(
    () => callFailure(4, { tool: "t" }, { error: new TypeError("a bug"), seen }),
    TypeError,
  );
});

Deno.test("putTarget() tells MCP targets from files by a fixed rule", () => {
  assert.deepEqual(putTarget("mcp+npx://pkg?tool=t"), {
    kind: "mcp",
    text: "mcp+npx://pkg?tool=t",
  });
  assert.deepEqual(putTarget("@biomcp/variant_search"), {
    kind: "mcp",
    text: "@biomcp/variant_search",
  });
  assert.deepEqual(putTarget("out/results.JSON"), {
    kind: "file",
    path: "out/results.JSON",
    format: "json",
  });
  assert.deepEqual(putTarget("./@x.ndjson"), {
    kind: "file",
    path: "./@x.ndjson",
    format: "ndjson",
  });
  assert.deepEqual(putTarget("a.jsonl"), { kind: "file", path: "a.jsonl", format: "ndjson" });
  for (const bad of ["results.txt", "results", "", "npx://pkg"]) {
    assert.throws(() => putTarget(bad), { name: "UsageError" });
  }
});

Deno.test("putMode(): a tool is called per record, no operation runs each record's own", () => {
  assert.deepEqual(putMode({ kind: "tool", name: "echo" }, "@demo/echo"), {
    kind: "tool",
    name: "echo",
  });
  assert.deepEqual(putMode({ kind: "none" }, "@demo"), { kind: "operations" });
  for (
    const operation of [
      { kind: "resource", uri: "demo://readme" },
      { kind: "prompt", name: "summarize" },
      { kind: "list", what: "tools" },
      { kind: "task", id: "t1" },
    ] as const
  ) {
    assert.throws(() => putMode(operation, "@demo?x"), {
      name: "UsageError",
      message: `Cannot put to "@demo?x": it names a ${operation.kind}, not a tool`,
    });
  }
});

Deno.test("readOperation() keeps a record's arguments as written and its _ keys out of the way", () => {
  const line = (text: string) => ({ number: 4, text });
  assert.deepEqual(
    readOperation(line('{"_id":1,"tool":"t","arguments":{"_own":2,"n":"5"}}')),
    {
      kind: "operation",
      operation: { kind: "tool", name: "t", arguments: { _own: 2, n: "5" } },
      subject: { tool: "t" },
      record: { _id: 1, tool: "t", arguments: { _own: 2, n: "5" } },
    },
  );
  assert.deepEqual(readOperation(line('{"list":"resource_templates"}')), {
    kind: "operation",
    operation: { kind: "list", what: "templates" },
    subject: { list: "resource_templates" },
    record: { list: "resource_templates" },
  });
  const bad = readOperation(line('{"_only": true}'));
  assert.equal(bad.kind === "error" && bad.record.kind, "invalid_operation");
});
