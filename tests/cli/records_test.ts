/**
 * The records of SPEC §3 as `cat`, `head`, `tail`, `inspect` and `mcp` write
 * them, against jn's demo server (a real MCP server on the official SDK,
 * launched through the deno launcher).
 */

import assert from "node:assert/strict";
import { parseNdjson, ROOT, runJnHere } from "../helpers.ts";

const DEMO = `mcp+deno://${ROOT}/tests/fixtures/demo_server_main.ts`;

type Rec = Record<string, unknown>;

async function cat(args: string[]): Promise<Rec[]> {
  const result = await runJnHere(args);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stderr, "");
  return parseNdjson(result.stdout) as Rec[];
}

Deno.test("cat writes one lossless record per content item", async (t) => {
  await t.step("image items keep base64 data and mimeType, in order", async () => {
    const records = await cat(["cat", `${DEMO}?tool=tiny_image`]);
    assert.equal(records.length, 2);
    assert.equal(records[0].type, "tool_result");
    assert.equal(records[0].content_type, "image");
    assert.equal(records[0].mimeType, "image/png");
    const png = Uint8Array.from(atob(records[0].data as string), (c) => c.charCodeAt(0));
    assert.deepEqual([...png.subarray(1, 4)], [0x50, 0x4e, 0x47]); // "PNG"
    assert.equal(records[1].content_type, "text");
  });

  await t.step("structured content adds a structured_result record", async () => {
    const records = await cat(["cat", `${DEMO}?tool=add&a=2&b=40`]);
    assert.deepEqual(records, [
      {
        type: "tool_result",
        tool: "add",
        content_type: "text",
        text: '{"sum":42}',
      },
      { type: "structured_result", tool: "add", data: { sum: 42 } },
    ]);
  });

  await t.step("resource links and embedded resources keep every field", async () => {
    const records = await cat(["cat", `${DEMO}?tool=resource_links`]);
    assert.equal(records[0].content_type, "resource_link");
    assert.equal(records[0].uri, "demo://readme");
    assert.equal(records[1].content_type, "resource");
    assert.equal((records[1].resource as Rec).uri, "demo://items/1");
  });

  await t.step("--json emits the structured payload instead of the envelope", async () => {
    assert.deepEqual(await cat(["cat", "--json", `${DEMO}?tool=add&a=1&b=1`]), [{ sum: 2 }]);
  });
});

Deno.test("head and tail with --json take records of a JSON list", async (t) => {
  const list = `${DEMO}?tool=list_items&count=6`;
  await t.step("head -n 2 keeps the first two elements", async () => {
    const records = await cat(["head", "-n", "2", "--json", list]);
    assert.deepEqual(records.map((r) => r.id), [1, 2]);
  });
  await t.step("tail -n 2 keeps the last two elements", async () => {
    const records = await cat(["tail", "-n", "2", "--json", list]);
    assert.deepEqual(records.map((r) => r.id), [5, 6]);
  });
  await t.step("head defaults to 10 records", async () => {
    const records = await cat(["head", "--json", `${DEMO}?tool=list_items&count=25`]);
    assert.equal(records.length, 10);
  });
  await t.step("without --json the list is one text record", async () => {
    const records = await cat(["head", "-n", "5", list]);
    assert.equal(records.length, 1);
    assert.equal(JSON.parse(records[0].text as string).length, 6);
  });
});

Deno.test("resources, prompts and lists", async (t) => {
  await t.step("resource= reads into resource_content records", async () => {
    const [record] = await cat(["cat", `${DEMO}?resource=demo://readme`]);
    assert.equal(record.type, "resource_content");
    assert.equal(record.uri, "demo://readme");
    assert.equal(record.mimeType, "text/markdown");
    assert.match(record.text as string, /^# jn demo server/);
  });
  await t.step("prompt= gets prompt_message records", async () => {
    const records = await cat(["cat", `${DEMO}?prompt=summarize&topic=cats`]);
    assert.deepEqual(records, [{
      type: "prompt_message",
      prompt: "summarize",
      role: "user",
      content_type: "text",
      text: "Summarize cats in three sentences.",
    }]);
  });
  await t.step("a prompt without its required argument is a usage error", async () => {
    const result = await runJnHere(["cat", `${DEMO}?prompt=summarize`]);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /^jn: Prompt "summarize" needs "topic"/);
  });
  await t.step("list= lists tools, resources, templates and prompts", async () => {
    const tools = await cat(["cat", `${DEMO}?list=tools`]);
    assert.ok(tools.every((r) => r.type === "tool" && typeof r.name === "string" && r.inputSchema));
    assert.ok(tools.some((r) => r.name === "echo"));
    const resources = await cat(["cat", `${DEMO}?list=resources`]);
    assert.ok(resources.some((r) => r.type === "resource" && r.uri === "demo://readme"));
    const templates = await cat(["cat", `${DEMO}?list=templates`]);
    assert.equal(templates[0].type, "resource_template");
    assert.equal(templates[0].uriTemplate, "demo://items/{id}");
    const prompts = await cat(["cat", `${DEMO}?list=prompts`]);
    assert.equal(prompts[0].type, "prompt");
  });
  await t.step("cat without an operation says what to add", async () => {
    const result = await runJnHere(["cat", DEMO]);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /name a tool, resource, prompt or list/);
  });
});

Deno.test("inspect and the mcp discovery commands", async (t) => {
  await t.step("inspect --format json has the seed's structure", async () => {
    const result = await runJnHere(["inspect", DEMO, "--format", "json"]);
    assert.equal(result.code, 0, result.stderr);
    const inventory = JSON.parse(result.stdout);
    assert.equal(inventory.transport, "stdio");
    assert.equal(inventory.server, `${ROOT}/tests/fixtures/demo_server_main.ts`);
    assert.equal(inventory.serverInfo.name, "jn-demo");
    for (const key of ["tools", "resources", "resource_templates", "prompts"]) {
      assert.ok(Array.isArray(inventory[key]), key);
    }
    const echo = inventory.tools.find((tool: Rec) => tool.name === "echo");
    assert.deepEqual(echo.inputSchema.required, ["text"]);
  });
  await t.step("inspect text shows tools with their parameters", async () => {
    const result = await runJnHere(["inspect", DEMO]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^jn-demo 0\.1\.0 {2}\(stdio, protocol [\d-]+\)/);
    assert.match(result.stdout, /\n {2}echo\(text: string, repeat\?: integer\)\n/);
    assert.match(result.stdout, /\nResources \(\d+\)\n {2}demo:\/\/readme/);
    assert.match(result.stdout, /\nPrompts \(1\)\n {2}summarize\(topic\)/);
  });
  await t.step("mcp explore equals inspect --format json", async () => {
    const explore = await runJnHere(["mcp", "explore", DEMO]);
    const inspect = await runJnHere(["inspect", "--format", "json", DEMO]);
    assert.deepEqual(JSON.parse(explore.stdout), JSON.parse(inspect.stdout));
  });
  await t.step("mcp tools writes tool records; mcp schema one tool's schemas", async () => {
    const tools = parseNdjson((await runJnHere(["mcp", "tools", DEMO])).stdout) as Rec[];
    assert.ok(tools.length >= 8 && tools.every((r) => r.type === "tool"));
    const schema = JSON.parse((await runJnHere(["mcp", "schema", DEMO, "add"])).stdout);
    assert.equal(schema.name, "add");
    assert.deepEqual(schema.inputSchema.required, ["a", "b"]);
    assert.equal(schema.outputSchema.type, "object");
  });
});
