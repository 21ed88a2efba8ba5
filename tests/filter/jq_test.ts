/** compileJq(): errors, per-record failures, halts, batching and size limits. */

import assert from "node:assert/strict";
import { compileJq, type JqEvent } from "../../lib/filter/jq.ts";
import { type NdjsonLine, readLineBatches } from "../../lib/ndjson/read.ts";
import { UsageError } from "../../lib/errors.ts";

const outputs = (events: JqEvent[]) => events.flatMap((e) => e.kind === "output" ? [e.json] : []);

Deno.test("compileJq() rejects a bad expression with jq's message", async (t) => {
  const cases: [string, RegExp][] = [
    [
      ".a |",
      /^Invalid jq expression "\.a \|": syntax error, unexpected end of file at line 1, column 4$/,
    ],
    ["foo(1)", /^Invalid jq expression "foo\(1\)": foo\/1 is not defined at line 1, column 1$/],
    [".a | %", /syntax error, unexpected '%' at line 1, column 6$/],
    ['include "x"; .', /module not found: x$/],
    ["{", /unexpected end of file/],
  ];
  for (const [expr, message] of cases) {
    await t.step(expr, async () => {
      const error = await compileJq(expr).then(() => undefined, (e) => e);
      assert.ok(error instanceof UsageError, `expected UsageError, got ${error}`);
      assert.match(error.message, message);
      assert.doesNotMatch(error.message, /\n/);
      assert.ok(error.hint);
    });
  }
  await t.step("every error of the expression is in the one line", async () => {
    const error = await compileJq("foo | bar").catch((e) => e);
    assert.match(error.message, /foo\/0 is not defined .*; bar\/0 is not defined/);
  });
  await t.step("a quoting mistake gets a quoting hint", async () => {
    const error = await compileJq("'.a'").catch((e) => e);
    assert.match(error.hint, /single quotes/);
  });
  await t.step("a trailing comment, even one ending in a backslash, stays a comment", async () => {
    for (const expr of [".a # comment", ".a # comment \\", "# lead\n.a"]) {
      const filter = await compileJq(expr);
      assert.deepEqual(outputs(filter.run(['{"a":1}'])), ["1"], expr);
    }
  });
});

Deno.test("compileJq() reports a runtime error per record and goes on", async () => {
  const filter = await compileJq(".a.b");
  const events = filter.run(['{"a":{"b":1}}', '{"a":"x"}', "3", '{"a":{"b":[2]}}']);
  assert.deepEqual(events, [
    { kind: "output", line: 1, json: "1" },
    {
      kind: "error",
      line: 2,
      message: 'Cannot index string with string ("b")',
      value: 'Cannot index string with string ("b")',
    },
    {
      kind: "error",
      line: 3,
      message: 'Cannot index number with string ("a")',
      value: 'Cannot index number with string ("a")',
    },
    { kind: "output", line: 4, json: "[2]" },
  ]);
});

Deno.test("compileJq() keeps the outputs a record made before its error", async () => {
  const events = (await compileJq(".[] | if . == 2 then error({n: .}) else . end")).run([
    "[1,2,3]",
  ]);
  assert.deepEqual(events, [
    { kind: "output", line: 1, json: "1" },
    { kind: "error", line: 1, message: '{"n":2} (not a string)', value: { n: 2 } },
  ]);
});

Deno.test("compileJq() marks a line that is not one JSON value and goes on", async () => {
  const events = (await compileJq(".")).run(["{", "1 2", "nope", "[1]"]);
  assert.deepEqual(events.map((e) => [e.kind, e.line]), [
    ["invalid", 1],
    ["invalid", 2],
    ["invalid", 3],
    ["output", 4],
  ]);
  assert.equal(
    events[0].kind === "invalid" && events[0].message,
    "Cannot parse JSON: Unfinished JSON term at EOF at column 1",
  );
  assert.equal(
    events[1].kind === "invalid" && events[1].message,
    "Cannot parse JSON: Unexpected extra JSON values",
  );
});

Deno.test("compileJq() stops at halt and halt_error", async (t) => {
  const records = ["1", "2", "3", "4"];
  await t.step("halt", async () => {
    const events = (await compileJq("if . == 2 then halt else . end")).run(records);
    assert.deepEqual(events, [
      { kind: "output", line: 1, json: "1" },
      { kind: "halt", line: 2, exitCode: 0, stderr: "" },
    ]);
  });
  await t.step("halt_error with a code, across batches", async () => {
    const filter = await compileJq('if . == 3 then "bye" | halt_error(7) else . end', {
      maxBatchLines: 1,
    });
    assert.deepEqual(filter.run(records), [
      { kind: "output", line: 1, json: "1" },
      { kind: "output", line: 2, json: "2" },
      { kind: "halt", line: 3, exitCode: 7, stderr: "bye" },
    ]);
  });
  await t.step("stream() reads no further batch after a halt", async () => {
    const filter = await compileJq("if . == 2 then halt_error else . end");
    let pulled = 0;
    async function* batches(): AsyncGenerator<NdjsonLine[]> {
      for (let i = 1; i <= 4; i++) {
        pulled++;
        yield [{ text: String(i), number: i }];
      }
    }
    const events = await Array.fromAsync(filter.stream(batches()));
    assert.equal(pulled, 2);
    assert.deepEqual(events.at(-1), { kind: "halt", line: 2, exitCode: 5, stderr: "2" });
  });
});

Deno.test("compileJq() gives what debug and stderr wrote as a stderr event", async () => {
  const events = (await compileJq("debug | .a")).run(['{"a":1}', '{"a":2}']);
  assert.deepEqual(events, [
    { kind: "output", line: 1, json: "1" },
    { kind: "output", line: 2, json: "2" },
    { kind: "stderr", line: 2, text: '["DEBUG:",{"a":1}]\n["DEBUG:",{"a":2}]' },
  ]);
});

Deno.test("compileJq() filters each record on its own: input and inputs fail", async () => {
  const events = (await compileJq("[., input]")).run(["1", "2"]);
  assert.deepEqual(events.map((e) => [e.kind, e.line]), [["error", 1], ["error", 2]]);
  assert.match(
    events[0].kind === "error" ? events[0].message : "",
    /each record is filtered on its own/,
  );
});

Deno.test("compileJq() gives $ENV and env from the env option only", async () => {
  const withEnv = await compileJq("$ENV.GREETING, env.GREETING", { env: { GREETING: "hi" } });
  assert.deepEqual(outputs(withEnv.run(["null"])), ['"hi"', '"hi"']);
  const without = await compileJq("$ENV");
  assert.deepEqual(outputs(without.run(["null"])), ["{}"]);
});

Deno.test("compileJq() prints numbers the jq 1.8 way", async () => {
  const filter = await compileJq(".");
  assert.equal(filter.jqVersion, "jq-1.8.2");
  const input = "[1.0,100000000000000000001,1.5,-0,1e2]";
  assert.deepEqual(outputs(filter.run([input])), ["[1.0,100000000000000000001,1.5,-0,1E+2]"]);
  assert.deepEqual(outputs((await compileJq(".[] + 0")).run(["[1.0,1e2]"])), ["1", "100"]);
});

Deno.test("compileJq() cannot be fooled by data that looks like its markers", async () => {
  const records = ['["__jn_0",  "e", "x"]', '"__jn_00000000000000000000000000000000"'];
  assert.deepEqual(outputs((await compileJq(".")).run(records)), [
    '["__jn_0","e","x"]',
    '"__jn_00000000000000000000000000000000"',
  ]);
});

Deno.test("compileJq() handles a line of several megabytes", async () => {
  const big = "x".repeat(5 * 1024 * 1024);
  const events = (await compileJq("(.s | length), .n")).run([
    JSON.stringify({ s: big, n: 1 }),
    "{}",
  ]);
  assert.deepEqual(outputs(events), [String(big.length), "1", "0", "null"]);
  const echoed = outputs((await compileJq(".s")).run([JSON.stringify({ s: big })]));
  assert.equal(echoed[0].length, big.length + 2);
});

Deno.test("compileJq() keeps order and line numbers over 100k records", async () => {
  const n = 100_000;
  const text = Array.from({ length: n }, (_, i) => JSON.stringify({ id: i, x: i % 7 })).join("\n");
  const stream = ReadableStream.from([new TextEncoder().encode(text)]);
  const filter = await compileJq("select(.x > 1) | .id", { maxBatchLines: 4096 });
  const events = await Array.fromAsync(filter.stream(readLineBatches(stream)));
  const expected = Array.from({ length: n }, (_, i) => i).filter((i) => i % 7 > 1);
  assert.equal(events.length, expected.length);
  events.forEach((e, k) => {
    assert.equal(e.kind, "output");
    if (e.kind === "output") {
      assert.equal(e.json, String(expected[k]));
      assert.equal(e.line, expected[k] + 1);
    }
  });
});

Deno.test("compileJq() treats a newline inside a record as whitespace", async () => {
  assert.deepEqual(outputs((await compileJq(".a")).run(['{"a":\n1}'])), ["1"]);
});

Deno.test("compileJq() turns a crash of the wasm into a UsageError and loads a fresh jq", async () => {
  const crashing = await compileJq("def f: [f]; f");
  const error = (() => {
    try {
      crashing.run(["1"]);
    } catch (e) {
      return e;
    }
  })();
  // The expression is at fault (it recurses without end): a usage error, not a bug of jn (70).
  assert.ok(error instanceof UsageError);
  assert.match(error.message, /^The jq expression "def f: \[f\]; f" made jq abort on line 1$/);
  assert.match(error.hint ?? "", /recurse/);
  assert.deepEqual(outputs((await compileJq(".a")).run(['{"a":5}'])), ["5"]);
});
