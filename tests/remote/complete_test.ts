/**
 * `jn complete SOURCE ARG [PARTIAL]`, black-box: completions of a prompt's
 * argument and of a resource template's variable (the demo server, both
 * eras), context from the other query keys (server-everything's
 * `completable-prompt`), and the errors that name what there is.
 */
import assert from "node:assert/strict";
import { FIXTURES, parseNdjson, runJnHere } from "../helpers.ts";
import { serverEverything } from "./support.ts";

async function complete(...args: string[]) {
  const result = await runJnHere(["complete", ...args], { timeoutMs: 30_000 });
  return { ...result, records: parseNdjson(result.stdout) as Record<string, unknown>[] };
}

Deno.test("jn complete against the demo server", async (t) => {
  await t.step("a prompt argument: one record per value, filtered by PARTIAL", async () => {
    const { code, records, stderr } = await complete("@demo?prompt=summarize", "topic", "mc");
    assert.equal(code, 0, stderr);
    assert.deepEqual(records, [
      { type: "completion", prompt: "summarize", argument: "topic", value: "MCP" },
      { type: "completion", prompt: "summarize", argument: "topic", value: "MCP sampling" },
    ]);
  });

  await t.step("a resource template variable, in the 2025 era too", async () => {
    const { code, records, stderr } = await complete(
      "@demo?resource=demo://items/{id}",
      "id",
      "--protocol",
      "legacy",
    );
    assert.equal(code, 0, stderr);
    assert.deepEqual(records.map((r) => [r.resource, r.argument, r.value]), [
      ["demo://items/{id}", "id", "1"],
      ["demo://items/{id}", "id", "2"],
      ["demo://items/{id}", "id", "3"],
    ]);
  });

  await t.step("an unknown prompt or argument is a usage error naming what there is", async () => {
    const prompt = await complete("@demo?prompt=nope", "x");
    assert.equal(prompt.code, 2);
    assert.match(
      prompt.stderr,
      /Prompt "nope" not found on server "@demo"\nhint: its prompts: summarize/,
    );
    const variable = await complete("@demo?resource=demo://items/{id}", "name");
    assert.equal(variable.code, 2);
    assert.match(variable.stderr, /has no argument "name"\nhint: its arguments: id/);
  });

  await t.step("a mistyped prompt or argument gets a did-you-mean, like cat", async () => {
    const prompt = await complete("@demo?prompt=sumarize", "topc");
    assert.equal(prompt.code, 2);
    assert.match(prompt.stderr, /Prompt "sumarize" not found.*\nhint: did you mean "summarize"\?/);
    const variable = await complete("@demo?prompt=summarize", "topc");
    assert.equal(variable.code, 2);
    assert.match(variable.stderr, /no argument "topc"\nhint: did you mean "topic"\?/);
  });

  await t.step("a context key the prompt does not declare is a usage error too", async () => {
    const { code, stderr } = await complete("@demo?prompt=summarize&topik=x", "topic");
    assert.equal(code, 2, stderr);
    assert.match(
      stderr,
      /Prompt "summarize" has no argument "topik"\nhint: did you mean "topic"\?/,
    );
  });

  await t.step("--arg and --args are context too, checked like query keys", async () => {
    const flag = await complete("@demo?prompt=summarize", "topic", "--arg", "topik=x");
    assert.equal(flag.code, 2, flag.stderr);
    assert.match(flag.stderr, /Prompt "summarize" has no argument "topik"/);
    const json = await complete("@demo?prompt=summarize", "topic", "--args", '{"tpic": 1}');
    assert.equal(json.code, 2, json.stderr);
    assert.match(json.stderr, /has no argument "tpic"\nhint: did you mean "topic"\?/);
    const bad = await complete("@demo?prompt=summarize", "topic", "--arg", "novalue");
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /Invalid --arg "novalue": expected KEY=VALUE/);
  });

  await t.step("a source that names no prompt or template is a usage error", async () => {
    const { code, stderr } = await complete("@demo?tool=echo", "text");
    assert.equal(code, 2);
    assert.match(stderr, /Nothing to complete in "@demo\?tool=echo"/);
  });

  await t.step("a server without the completions capability is exit 5", async () => {
    const { code, stderr } = await complete(
      `mcp+node://${FIXTURES}/servers/asker.mjs?prompt=p`,
      "a",
    );
    assert.equal(code, 5);
    assert.match(stderr, /does not offer completions/);
  });
});

const EVERYTHING = await serverEverything();

Deno.test({
  name: "jn complete sends the other query keys as context (server-everything)",
  ignore: EVERYTHING === undefined,
  async fn() {
    const source = `mcp+node://${EVERYTHING}?prompt=completable-prompt`;
    const sales = await complete(`${source}&department=Sales`, "name");
    assert.equal(sales.code, 0, sales.stderr);
    assert.deepEqual(sales.records.map((r) => r.value), ["David", "Eve", "Frank"]);
    const none = await complete(source, "department", "S");
    assert.deepEqual(none.records.map((r) => r.value), ["Sales", "Support"]);
    // --arg is context too, over the query's: jn complete takes it like cat and put.
    const flag = await complete(
      `${source}&department=Sales`,
      "name",
      "--arg",
      "department=Marketing",
    );
    assert.equal(flag.code, 0, flag.stderr);
    assert.deepEqual(flag.records.map((r) => r.value), ["Grace", "Henry", "Iris"]);
  },
});
