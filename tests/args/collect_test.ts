import assert from "node:assert/strict";
import { UsageError } from "../../lib/errors.ts";
import { type ArgPairs, collectArgs, parseArgFlag } from "../../lib/args/collect.ts";

function entries(pairs: ArgPairs): [string, unknown][] {
  return [...pairs.entries()];
}

Deno.test("collectArgs() keeps query arguments as raw strings, in order", () => {
  const pairs = collectArgs({
    query: [{ key: "q", value: "deno" }, { key: "n", value: "5" }],
  });
  assert.deepEqual(entries(pairs), [
    ["q", { kind: "raw", values: ["deno"] }],
    ["n", { kind: "raw", values: ["5"] }],
  ]);
});

Deno.test("collectArgs() turns a repeated query key into a list of strings", () => {
  const pairs = collectArgs({
    query: [{ key: "tag", value: "a" }, { key: "x", value: "1" }, { key: "tag", value: "b" }],
  });
  assert.deepEqual(entries(pairs), [
    ["tag", { kind: "raw", values: ["a", "b"] }],
    ["x", { kind: "raw", values: ["1"] }],
  ]);
});

Deno.test("collectArgs() applies precedence defaults < query < --args < --arg", async (t) => {
  await t.step("--args replaces a query value with a typed one", () => {
    const pairs = collectArgs({ query: [{ key: "n", value: "5" }], args: '{"n": 7}' });
    assert.deepEqual(entries(pairs), [["n", { kind: "json", value: 7 }]]);
  });
  await t.step("--arg replaces --args and the query entirely", () => {
    const pairs = collectArgs({
      query: [{ key: "tag", value: "q1" }, { key: "tag", value: "q2" }],
      args: '{"tag": ["j"]}',
      arg: ["tag=a1", "tag=a2"],
    });
    assert.deepEqual(entries(pairs), [["tag", { kind: "raw", values: ["a1", "a2"] }]]);
  });
  await t.step("defaults fill only what nothing else gives", () => {
    const pairs = collectArgs({
      defaults: { limit: 10, mode: "fast" },
      query: [{ key: "mode", value: "slow" }],
    });
    assert.deepEqual(entries(pairs), [
      ["limit", { kind: "json", value: 10 }],
      ["mode", { kind: "raw", values: ["slow"] }],
    ]);
  });
  await t.step("keys keep the position where they were first given", () => {
    const pairs = collectArgs({
      query: [{ key: "a", value: "1" }, { key: "b", value: "2" }],
      arg: ["c=3", "a=9"],
    });
    assert.deepEqual([...pairs.keys()], ["a", "b", "c"]);
  });
});

Deno.test("collectArgs() lets --arg and --args carry keys named like reserved ones", () => {
  const pairs = collectArgs({ query: [], args: '{"tool": "x"}', arg: ["command=ls"] });
  assert.deepEqual(entries(pairs), [
    ["tool", { kind: "json", value: "x" }],
    ["command", { kind: "raw", values: ["ls"] }],
  ]);
});

Deno.test("collectArgs() keeps a __proto__ key as data", () => {
  const pairs = collectArgs({ query: [], args: '{"__proto__": {"polluted": true}}' });
  assert.deepEqual(entries(pairs), [["__proto__", { kind: "json", value: { polluted: true } }]]);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});

Deno.test("parseArgFlag() splits at the first = only", async (t) => {
  const cases: [string, string, string][] = [
    ["k=v", "k", "v"],
    ["expr=a=b=c", "expr", "a=b=c"],
    ["empty=", "empty", ""],
    ["spaced key= v ", "spaced key", " v "],
  ];
  for (const [text, key, value] of cases) {
    await t.step(text, () => assert.deepEqual(parseArgFlag(text), { key, value }));
  }
});

Deno.test("collectArgs() rejects a malformed flag with a message naming it", async (t) => {
  const cases: [string, Parameters<typeof collectArgs>[0], string, string][] = [
    [
      "--arg without =",
      { query: [], arg: ["verbose"] },
      `Invalid --arg "verbose": expected KEY=VALUE`,
      "--arg verbose=VALUE",
    ],
    [
      "--arg with an empty key",
      { query: [], arg: ["=v"] },
      `Invalid --arg "=v": the key is empty`,
      "KEY=VALUE",
    ],
    [
      "--args that is not JSON",
      { query: [], args: "{n: 1}" },
      `Invalid --args "{n: 1}": `,
      "JSON object",
    ],
    [
      "--args that is an array",
      { query: [], args: "[1]" },
      `Invalid --args "[1]": expected a JSON object, got an array`,
      "JSON object",
    ],
    [
      "--args that is null",
      { query: [], args: "null" },
      `Invalid --args "null": expected a JSON object, got null`,
      "JSON object",
    ],
    [
      "--args that is a number",
      { query: [], args: "5" },
      `Invalid --args "5": expected a JSON object, got a number`,
      "JSON object",
    ],
    [
      "--args that is a string",
      { query: [], args: '"x"' },
      `Invalid --args ""x"": expected a JSON object, got a string`,
      "JSON object",
    ],
  ];
  for (const [name, sources, message, hint] of cases) {
    await t.step(name, () => {
      assert.throws(() => collectArgs(sources), (error: unknown) => {
        assert.ok(error instanceof UsageError);
        assert.ok(error.message.startsWith(message), error.message);
        assert.match(error.hint ?? "", new RegExp(hint.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
        return true;
      });
    });
  }
});
