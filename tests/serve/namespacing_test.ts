/**
 * Several sources in one server: each tool and prompt is `SOURCE__NAME`
 * (one source keeps its names), long or unusual names are cut and hashed
 * deterministically, calls and reads go to the right source, and a source
 * that fails to start is reported and listed as failed while the others
 * serve.
 *
 * @module
 */

import assert from "node:assert/strict";
import { MAX_NAME_LENGTH, offeredName, sourceAlias, uniqueAliases } from "../../lib/serve/names.ts";
import { fixtureUri, stdioHost } from "./support.ts";

Deno.test("sourceAlias() names a source by its profile, package, script or host", () => {
  assert.equal(sourceAlias("@biomcp"), "biomcp");
  assert.equal(sourceAlias("@my_tools"), "my-tools");
  assert.equal(sourceAlias("mcp+npx://@upstash/context7-mcp@latest"), "context7-mcp");
  assert.equal(sourceAlias("mcp+uvx://biomcp-python/biomcp?command=run"), "biomcp");
  assert.equal(sourceAlias("mcp+python://./examples/server.py"), "server");
  assert.equal(sourceAlias("mcp+node:///abs/dir/fixture.mjs?command=--slow"), "fixture");
  assert.equal(sourceAlias("mcp+https://api.example.com:8443/mcp"), "api-example-com");
  assert.equal(
    sourceAlias("mcp+deno://./a_very_long_script_name_that_goes_on_and_on.ts"),
    "a-very-long-script-name",
  );
  assert.deepEqual(uniqueAliases(["demo", "demo", "x", "demo"]), ["demo", "demo-2", "x", "demo-3"]);
});

Deno.test("offeredName(): unchanged alone, SOURCE__NAME together, cut and hashed past the limit", () => {
  assert.equal(offeredName("demo", "get.file/v2", { namespaced: false }), "get.file/v2");
  assert.equal(offeredName("demo", "add", { namespaced: true }), "demo__add");
  const long = "x".repeat(80);
  const cut = offeredName("demo", long, { namespaced: true });
  assert.equal(cut.length, MAX_NAME_LENGTH);
  assert.match(cut, /^demo__x+_[0-9a-f]{6}$/);
  assert.equal(offeredName("demo", long, { namespaced: true }), cut, "the same every time");
  const other = offeredName("demo", `${long}y`, { namespaced: true });
  assert.notEqual(other, cut, "names sharing their first 64 characters still differ");
  const dotted = offeredName("fs", "read.file", { namespaced: true });
  assert.match(dotted, /^fs__read_file_[0-9a-f]{6}$/);
  assert.notEqual(dotted, offeredName("fs", "read_file", { namespaced: true }));
  assert.equal(offeredName("fs", "read_file", { namespaced: true }), "fs__read_file");
  assert.ok(offeredName("a", "b".repeat(40), { namespaced: true, maxLength: 20 }).length <= 20);
});

Deno.test("serve: two sources namespaced, a third that fails is listed as failed", async () => {
  const host = await stdioHost([
    "@demo",
    fixtureUri("fixture.mjs"),
    fixtureUri("fixture.mjs", ["--exit-before-handshake"]),
  ]);
  try {
    const client = host.client;
    assert.equal(client.getServerVersion()?.name, "jn");
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    assert.ok(names.includes("demo__add"), names.join(" "));
    assert.ok(names.includes("fixture__echo"), names.join(" "));
    assert.ok(!names.some((name) => name.startsWith("fixture-2__")), names.join(" "));
    const sum = await client.callTool({ name: "demo__add", arguments: { a: 1, b: 2 } });
    assert.deepEqual(sum.structuredContent, { sum: 3 });
    const echo = await client.callTool({ name: "fixture__echo", arguments: { text: "hi" } });
    assert.deepEqual(echo.content, [{ type: "text", text: '{"text":"hi"}' }]);
    const bare = await client.callTool({ name: "add", arguments: { a: 1, b: 2 } }).catch((e) => e);
    assert.match(String(bare?.message), /Unknown tool: add/);

    const prompts = (await client.listPrompts()).prompts.map((prompt) => prompt.name);
    assert.ok(prompts.includes("demo__summarize"), prompts.join(" "));
    const prompt = await client.getPrompt({ name: "demo__summarize", arguments: { topic: "jq" } });
    assert.match(JSON.stringify(prompt.messages), /jq/);
    const completion = await client.complete({
      ref: { type: "ref/prompt", name: "demo__summarize" },
      argument: { name: "topic", value: "N" },
    });
    assert.deepEqual(completion.completion.values, ["NDJSON"]);
    const readme = await client.readResource({ uri: "demo://items/2" });
    assert.equal(JSON.parse(String((readme.contents[0] as { text: string }).text)).id, 2);

    const instructions = client.getInstructions() ?? "";
    assert.match(instructions, /## demo\n/);
    assert.match(instructions, /the source "fixture-2" failed to start/);
    assert.match(host.stderr(), /^jn: source "fixture-2" did not start \(the others serve\): /m);
  } finally {
    await host.close();
  }
});
