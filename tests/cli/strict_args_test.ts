/**
 * Strict means strict (#15), against tests/fixtures/servers/strict.mjs: an
 * argument a tool's schema does not declare is a usage error naming the
 * closest one (`--allow-unknown` sends it), in `put` an error record; a
 * tool argument named like a reserved query key says how to give it; prompt
 * and resource names get a did-you-mean; a server's "MCP error -32002: …"
 * is not echoed twice; `--json` gives the value of a JSON resource, and no
 * record gets a `mimeType` the server did not send. jn runs in-process
 * (tests/helpers.ts runJnHere): what is tested is the commands' checks.
 */

import assert from "node:assert/strict";
import { FIXTURES, parseNdjson, runJnHere } from "../helpers.ts";

const S = `mcp+node://${FIXTURES}/servers/strict.mjs`;

Deno.test("an argument the tool's schema does not declare", async (t) => {
  await t.step("is a usage error naming the closest declared one", async () => {
    const result = await runJnHere(["cat", `${S}?tool=strict_echo&txt=a`]);
    assert.equal(result.code, 2, result.stderr);
    assert.equal(result.stdout, "");
    assert.match(
      result.stderr,
      /^jn: Unknown argument "txt" for tool "strict_echo": did you mean "text"\?\nhint: --allow-unknown sends/,
    );
  });
  await t.step("also without additionalProperties in the schema", async () => {
    const result = await runJnHere(["cat", "--arg", "tool=x", `${S}?tool=lookup&qurey=a`]);
    assert.equal(result.code, 2, result.stderr);
    assert.match(
      result.stderr,
      /Unknown argument "qurey" for tool "lookup": did you mean "query"\?/,
    );
  });
  await t.step("--allow-unknown sends it anyway", async () => {
    const result = await runJnHere(["cat", "--allow-unknown", `${S}?tool=strict_echo&txt=a`]);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(parseNdjson(result.stdout), [
      { type: "tool_result", tool: "strict_echo", content_type: "text", text: '{"txt":"a"}' },
    ]);
  });
  await t.step("a schema without properties takes any name", async () => {
    const result = await runJnHere(["cat", `${S}?tool=free&anything=1`]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /\{\\"anything\\":\\"1\\"\}/);
  });
});

Deno.test("put: an undeclared field makes that record an error record, not the run", async (t) => {
  const input = '{"text":"a"}\n{"txt":"b"}\n{"text":"c"}\n';
  await t.step("each bad record is an invalid_arguments record", async () => {
    const result = await runJnHere(["put", `${S}?tool=strict_echo`], { stdin: input });
    assert.equal(result.code, 1, result.stderr);
    const records = parseNdjson(result.stdout) as Record<string, unknown>[];
    assert.deepEqual(records.map((r) => [r.input, r.type]), [
      [1, "tool_result"],
      [2, "error"],
      [3, "tool_result"],
    ]);
    assert.equal(records[1].kind, "invalid_arguments");
    assert.deepEqual(records[1].violations, [
      { path: "txt", message: 'is unknown: did you mean "text"?', unknown: true },
    ]);
  });
  await t.step("--allow-unknown sends it", async () => {
    const result = await runJnHere(["put", "--allow-unknown", `${S}?tool=strict_echo`], {
      stdin: input,
    });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /"input":2,.*\{\\"txt\\":\\"b\\"\}/);
  });
  await t.step("one in the target's own arguments is a usage error before any call", async () => {
    const result = await runJnHere(["put", `${S}?tool=strict_echo&repet=2`], { stdin: input });
    assert.equal(result.code, 2, result.stderr);
    assert.equal(result.stdout, "");
    assert.match(
      result.stderr,
      /Unknown argument "repet" for tool "strict_echo": did you mean "repeat"\?/,
    );
  });
});

Deno.test("a tool argument named like a reserved query key", async (t) => {
  await t.step("missing: the error says to give it with --arg", async () => {
    const result = await runJnHere(["cat", `${S}?tool=lookup`]);
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /jn: Invalid arguments for tool "lookup": tool is required/);
    assert.match(result.stderr, /hint: "tool" is a reserved query key .* --arg tool=VALUE/);
  });
  await t.step("in the query it clashes, and the error says where it goes", async () => {
    const result = await runJnHere(["cat", `${S}?tool=lookup&list=tools`]);
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /"list=" conflicts with "tool="/);
    assert.match(result.stderr, /argument named "list" goes in --arg list=VALUE/);
  });
  await t.step("--arg carries it", async () => {
    const result = await runJnHere([
      "cat",
      "--arg",
      "tool=x",
      "--arg",
      "list=y",
      `${S}?tool=lookup`,
    ]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /\{\\"tool\\":\\"x\\",\\"list\\":\\"y\\"\}/);
  });
});

Deno.test("did you mean: prompts, prompt arguments, resources, list kinds", async (t) => {
  await t.step("a prompt name", async () => {
    const result = await runJnHere(["cat", `${S}?prompt=gret`]);
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /Prompt "gret" not found .*\nhint: did you mean "greet"\?/);
  });
  await t.step("a prompt argument", async () => {
    const result = await runJnHere(["cat", `${S}?prompt=greet&name=a&stlye=b`]);
    assert.equal(result.code, 2, result.stderr);
    assert.match(
      result.stderr,
      /Unknown argument "stlye" for prompt "greet": did you mean "style"\?/,
    );
  });
  await t.step("a resource URI, with MCP error said once", async () => {
    const result = await runJnHere(["cat", `${S}?resource=data://itmes`]);
    assert.equal(result.code, 5, result.stderr);
    assert.match(
      result.stderr,
      /^jn: The server answered resources\/read "data:\/\/itmes" with error -32002: Resource data:\/\/itmes not found\nhint: did you mean "data:\/\/items"\?/,
    );
    assert.doesNotMatch(result.stderr, /MCP error/);
  });
  await t.step("a list kind", async () => {
    const result = await runJnHere(["cat", `${S}?list=tols`]);
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /hint: did you mean list=tools\?/);
  });
});

Deno.test("--json and JSON resources; no invented mimeType", async (t) => {
  await t.step("a JSON array resource gives one record per element", async () => {
    const result = await runJnHere(["cat", "--json", `${S}?resource=data://items`]);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(parseNdjson(result.stdout), [{ id: 1 }, { id: 2 }]);
  });
  await t.step("a JSON object resource gives one record", async () => {
    const result = await runJnHere(["cat", "--json", `${S}?resource=data://config`]);
    assert.deepEqual(parseNdjson(result.stdout), [{ depth: 2 }]);
  });
  await t.step("other resources stay resource_content records", async () => {
    const result = await runJnHere(["cat", "--json", `${S}?resource=data://readme`]);
    assert.deepEqual(parseNdjson(result.stdout), [
      {
        type: "resource_content",
        uri: "data://readme",
        mimeType: "text/markdown",
        text: "# readme",
      },
    ]);
  });
  await t.step("a resource without mimeType gets none", async () => {
    const result = await runJnHere(["cat", `${S}?resource=data://note`]);
    assert.deepEqual(parseNdjson(result.stdout), [
      { type: "resource_content", uri: "data://note", text: "hello" },
    ]);
  });
});
