import assert from "node:assert/strict";
import { parseNdjson, runJnHere, tempDir } from "../helpers.ts";
import { fixtureUri, ndjson, readCallLog } from "./put_helpers.ts";

type Rec = Record<string, unknown>;

/** [input, type, kind] of each output record. */
const shape = (records: Rec[]) => records.map((r) => [r.input, r.type, r.kind ?? null]);

Deno.test("every kind of bad line yields an error record and the run goes on", async (t) => {
  const lines = [
    '{"text":"first"}',
    "", // blank: skipped, but counted
    "not json",
    "[1, 2]",
    "42",
    '"text"',
    "null",
    '{"text": 5}',
    '{"text":"last"}',
  ];
  const { code, stdout, stderr } = await runJnHere(["put", "-c", "4", fixtureUri("echo")], {
    stdin: lines.join("\r\n"),
  });
  const records = parseNdjson(stdout) as Rec[];

  await t.step("one record per non-blank line, numbered by physical line", () => {
    assert.deepEqual(shape(records), [
      [1, "tool_result", null],
      [3, "error", "invalid_json"],
      [4, "error", "not_object"],
      [5, "error", "not_object"],
      [6, "error", "not_object"],
      [7, "error", "not_object"],
      [8, "error", "invalid_arguments"],
      [9, "tool_result", null],
    ]);
  });

  await t.step("error records say what is wrong and keep the offending input", () => {
    assert.equal(records[1].tool, "echo");
    assert.match(records[1].error as string, /^Not JSON: /);
    assert.equal(records[1].line, "not json");
    assert.equal(records[2].error, "Not a JSON object: got an array");
    assert.equal(records[3].error, "Not a JSON object: got a number");
    assert.equal(records[5].error, "Not a JSON object: got null");
    assert.deepEqual(records[6], {
      type: "error",
      input: 8,
      tool: "echo",
      kind: "invalid_arguments",
      error: 'Invalid arguments for tool "echo": text must be string',
      violations: [{ path: "text", message: "must be string", value: 5 }],
      record: { text: 5 },
    });
  });

  await t.step("the run exits 1 and the summary counts the errors", () => {
    assert.equal(code, 1);
    assert.match(stderr, /^jn put echo: 8 records, 2 calls, 6 errors in /);
  });
});

Deno.test("a record's values are validated strictly: a string is not an integer", async () => {
  const { code, stdout } = await runJnHere(["put", "-q", fixtureUri("big")], {
    stdin: ndjson([{ bytes: "5" }, { bytes: 5 }]),
  });
  assert.equal(code, 1);
  const records = parseNdjson(stdout) as Rec[];
  assert.equal(records[0].kind, "invalid_arguments");
  assert.match(records[0].error as string, /bytes must be integer/);
  assert.equal(records[1].text, "abcde");
});

Deno.test("failed calls become error records that keep what the server said", async (t) => {
  await t.step("an isError result keeps the tool's content", async () => {
    const { code, stdout } = await runJnHere(["put", "-q", fixtureUri("fail")], {
      stdin: ndjson([{ message: "no such gene" }]),
    });
    assert.equal(code, 1);
    assert.deepEqual(parseNdjson(stdout), [{
      type: "error",
      input: 1,
      tool: "fail",
      kind: "tool_error",
      error: 'Tool "fail" answered with an error: no such gene',
      content: [{ type: "text", text: "no such gene" }],
    }]);
  });

  await t.step("a JSON-RPC error keeps its code and data", async () => {
    const { code, stdout } = await runJnHere(["put", "-q", fixtureUri("rpc_error")], {
      stdin: ndjson([{ message: "boom" }, {}]),
    });
    assert.equal(code, 1);
    const records = parseNdjson(stdout) as Rec[];
    assert.deepEqual(shape(records), [[1, "error", "rpc_error"], [2, "error", "rpc_error"]]);
    assert.equal(records[0].code, -32000);
    assert.deepEqual(records[0].data, { reason: "requested", tool: "rpc_error" });
    assert.match(records[0].error as string, /with error -32000: boom$/);
  });

  await t.step("a call that times out is an error record and the next one still runs", async () => {
    const { code, stdout } = await runJnHere(
      ["put", "-q", "-c", "1", "--timeout", "300ms", fixtureUri("sleep")],
      { stdin: ndjson([{ ms: 2000 }, { ms: 1 }]) },
    );
    assert.equal(code, 1);
    const records = parseNdjson(stdout) as Rec[];
    assert.deepEqual(shape(records), [[1, "error", "timeout"], [2, "tool_result", null]]);
  });
});

Deno.test("--fail-fast stops reading at the first failed record", async () => {
  const dir = await tempDir();
  try {
    const log = `${dir}/calls.ndjson`;
    const input = ndjson([{ text: "a" }, { text: 5 }, { text: "c" }, { text: "d" }]);
    const { code, stdout, stderr } = await runJnHere(
      ["put", "-c", "1", "--fail-fast", fixtureUri("echo", { switches: ["--call-log", log] })],
      { stdin: input },
    );
    assert.equal(code, 1);
    assert.deepEqual(shape(parseNdjson(stdout) as Rec[]), [
      [1, "tool_result", null],
      [2, "error", "invalid_arguments"],
    ]);
    assert.deepEqual((await readCallLog(log)).map((c) => c.arguments), [{ text: "a" }]);
    assert.match(stderr, /stopped at the first failed record \(--fail-fast\)/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("when the server dies mid-run every remaining line gets an error record, exit 4", async () => {
  const input = ndjson(Array.from({ length: 6 }, (_, i) => ({ text: `r${i + 1}` }))) +
    "not json\n";
  const { code, stdout, stderr } = await runJnHere(
    ["put", "-c", "1", fixtureUri("echo", { switches: ["--crash-after", "3"] })],
    { stdin: input },
  );
  assert.equal(code, 4);
  const records = parseNdjson(stdout) as Rec[];
  assert.deepEqual(shape(records), [
    [1, "tool_result", null],
    [2, "tool_result", null],
    [3, "tool_result", null],
    [4, "error", "connection"],
    [5, "error", "not_called"],
    [6, "error", "not_called"],
    [7, "error", "not_called"],
  ]);
  assert.match(records[3].error as string, /exited with code 1 during tools\/call "echo"/);
  assert.match(records[4].error as string, /^Not called: The server .* exited with code 1/);
  assert.match(stderr, /7 records, 4 calls, 4 errors .*the server went away/);
  assert.match(stderr, /\njn: The server .* exited with code 1 during tools\/call "echo"\n/);
  assert.match(stderr, /fixture: crashing after 3 tools\/call/);
});
