/**
 * Arguments from query strings, `--arg` and `--args`: converted to the types
 * the tool's inputSchema declares, validated before the call, every
 * violation named, and the server never called with bad arguments.
 */

import assert from "node:assert/strict";
import { FIXTURES, parseNdjson, ROOT, runJnHere } from "../helpers.ts";

const DEMO = `mcp+deno://${ROOT}/tests/fixtures/demo_server_main.ts`;
const FIXTURE = `mcp+node://${FIXTURES}/servers/fixture.mjs`;

type Rec = Record<string, unknown>;

async function typesDemo(args: string[]): Promise<{ arguments: Rec; types: Rec }> {
  const result = await runJnHere(["cat", ...args]);
  assert.equal(result.code, 0, result.stderr);
  const [record] = parseNdjson(result.stdout) as Rec[];
  return JSON.parse(record.text as string);
}

Deno.test("query strings are converted to the declared types", async (t) => {
  await t.step("integer, number, boolean, repeated array, JSON object, enum", async () => {
    const echoed = await typesDemo([
      `${DEMO}?tool=types_demo&count=3&ratio=0.25&enabled=false&tags=a&tags=b` +
      `&options=%7B%22deep%22%3A%5B1%2C2%5D%7D&color=green&text=007`,
    ]);
    assert.deepEqual(echoed.arguments, {
      count: 3,
      ratio: 0.25,
      enabled: false,
      tags: ["a", "b"],
      options: { deep: [1, 2] },
      color: "green",
      text: "007",
    });
    assert.deepEqual(echoed.types, {
      count: "number",
      ratio: "number",
      enabled: "boolean",
      tags: "array",
      options: "object",
      color: "string",
      text: "string",
    });
  });

  await t.step("a JSON array literal fills an array parameter", async () => {
    const echoed = await typesDemo([`${DEMO}?tool=types_demo&tags=%5B%22x%22%2C%22y%22%5D`]);
    assert.deepEqual(echoed.arguments.tags, ["x", "y"]);
  });

  await t.step("--arg and --args set arguments; --arg wins over the query", async () => {
    const echoed = await typesDemo([
      `${DEMO}?tool=types_demo&count=1`,
      "--args",
      '{"count": 2, "ratio": 1.5}',
      "--arg",
      "count=9",
    ]);
    assert.deepEqual(echoed.arguments, { count: 9, ratio: 1.5 });
  });

  await t.step("--arg can carry a key named like a reserved query key", async () => {
    const result = await runJnHere(["cat", `${FIXTURE}?tool=echo`, "--arg", "tool=hammer"]);
    assert.equal(result.code, 0, result.stderr);
    const [record] = parseNdjson(result.stdout) as Rec[];
    assert.deepEqual(JSON.parse(record.text as string), { tool: "hammer" });
  });
});

Deno.test("arguments that fail the schema exit 2 and never reach the server", async (t) => {
  const dir = await Deno.makeTempDir();
  const log = `${dir}/calls.ndjson`;
  const server = `${FIXTURE}?command=--call-log&command=${encodeURIComponent(log)}`;

  await t.step("each violation is named", async () => {
    const result = await runJnHere(["cat", `${server}&tool=search&limit=many&extra=1`]);
    assert.equal(result.code, 2);
    assert.equal(result.stdout, "");
    // One line names them all (then the hint); they are not listed a second time.
    const [first, ...rest] = result.stderr.trimEnd().split("\n");
    assert.match(first, /^jn: Invalid arguments for tool "search": /);
    assert.match(first, /gene is required/);
    assert.match(first, /limit must be integer \(got "many"\)/);
    assert.ok(rest.every((line) => line.startsWith("hint: ")), result.stderr);
  });

  await t.step("a boolean that is not true/false is refused", async () => {
    const result = await runJnHere([
      "cat",
      `${server}&tool=trial_search&condition=x&recruiting=yes`,
    ]);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /recruiting must be boolean/);
  });

  await t.step("an enum value outside the list is refused with the choices", async () => {
    const result = await runJnHere(["cat", `${server}&tool=trial_search&condition=x&phase=7`]);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /phase must be one of: 1, 2, 3, 4/);
  });

  await t.step("the server was never called", async () => {
    const calls = await Deno.readTextFile(log).catch(() => "");
    assert.equal(calls, "");
  });

  await t.step("valid arguments do reach it", async () => {
    const result = await runJnHere(["cat", `${server}&tool=search&gene=BRAF&limit=2`]);
    assert.equal(result.code, 0, result.stderr);
    const calls = parseNdjson(await Deno.readTextFile(log));
    assert.deepEqual(calls, [{ name: "search", arguments: { gene: "BRAF", limit: 2 } }]);
  });

  await t.step("bad --arg and --args syntax is refused before any server starts", async () => {
    const noArg = await runJnHere(["cat", `${server}&tool=echo`, "--arg", "novalue"]);
    assert.equal(noArg.code, 2);
    assert.match(noArg.stderr, /--arg/);
    const notObject = await runJnHere(["cat", `${server}&tool=echo`, "--args", "[1,2]"]);
    assert.equal(notObject.code, 2);
    assert.match(notObject.stderr, /--args/);
  });

  await Deno.remove(dir, { recursive: true });
});
