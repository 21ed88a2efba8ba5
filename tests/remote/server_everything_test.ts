import assert from "node:assert/strict";
import { parseNdjson, runJnHere, tempDir } from "../helpers.ts";
import { serverEverything, startNodeServer } from "./support.ts";

const EVERYTHING = await serverEverything();
const ignore = EVERYTHING === undefined;

type Rec = Record<string, unknown> & { type: string };

async function cat(source: string, ...flags: string[]) {
  const result = await runJnHere(["cat", source, ...flags], { timeoutMs: 30_000 });
  return { ...result, records: parseNdjson(result.stdout) as Rec[] };
}

const PNG_BASE64 = /^iVBORw0KGgo[A-Za-z0-9+/]+=*$/;

Deno.test({
  name: "every tool of server-everything over Streamable HTTP gives sensible records",
  ignore,
  async fn(t) {
    const server = await startNodeServer([EVERYTHING!, "streamableHttp"]);
    const base = `mcp+${server.url}/mcp`;
    try {
      await t.step("inspect lists its tools, including the ones elicitation unlocks", async () => {
        const { code, stdout, stderr } = await runJnHere(["inspect", base, "--format", "json"]);
        assert.equal(code, 0, stderr);
        const names = (JSON.parse(stdout).tools as { name: string }[]).map((tool) => tool.name);
        for (const name of ["echo", "get-tiny-image", "trigger-elicitation-request"]) {
          assert.ok(names.includes(name), `${name} in ${names}`);
        }
        assert.ok(!names.includes("get-roots-list"), "no roots unless asked");
        assert.ok(
          !names.includes("trigger-sampling-request"),
          "sampling is not advertised without --sampling-command",
        );
      });

      await t.step(
        "echo and get-sum give text records (query strings coerced to numbers)",
        async () => {
          const echo = await cat(`${base}?tool=echo&message=hi`);
          assert.deepEqual(echo.records, [
            {
              type: "tool_result",
              tool: "echo",
              content_type: "text",
              text: "Echo: hi",
            },
          ]);
          const sum = await cat(`${base}?tool=get-sum&a=2&b=3`);
          assert.match(String(sum.records[0].text), /is 5\b/);
        },
      );

      await t.step("get-annotated-message keeps annotations on text and image items", async () => {
        const { records, code } = await cat(
          `${base}?tool=get-annotated-message&messageType=error&includeImage=true`,
        );
        assert.equal(code, 0);
        assert.deepEqual(records[0].annotations, { audience: ["user", "assistant"], priority: 1 });
        assert.equal(records[1].content_type, "image");
        assert.equal(records[1].mimeType, "image/png");
        assert.match(String(records[1].data), PNG_BASE64);
        assert.deepEqual(records[1].annotations, { audience: ["user"], priority: 0.5 });
      });

      await t.step("get-tiny-image gives text, a base64 PNG, text", async () => {
        const { records } = await cat(`${base}?tool=get-tiny-image`);
        assert.deepEqual(records.map((r) => r.content_type), ["text", "image", "text"]);
        assert.match(String(records[1].data), PNG_BASE64);
      });

      await t.step("get-resource-links gives resource_link records", async () => {
        const { records } = await cat(`${base}?tool=get-resource-links&count=2`);
        assert.equal(records.length, 3);
        for (const link of records.slice(1)) {
          assert.equal(link.content_type, "resource_link");
          assert.match(String(link.uri), /^demo:\/\/resource\/dynamic\//);
          assert.equal(typeof link.name, "string");
          assert.equal(link.mimeType, "text/plain");
        }
      });

      await t.step("get-resource-reference embeds the resource", async () => {
        const { records } = await cat(
          `${base}?tool=get-resource-reference&resourceType=Text&resourceId=1`,
        );
        const embedded = records.find((r) => r.content_type === "resource")!;
        const resource = embedded.resource as Record<string, string>;
        assert.equal(resource.uri, "demo://resource/dynamic/text/1");
        assert.match(resource.text, /^Resource 1:/);
      });

      await t.step("gzip-file-as-resource embeds a base64 blob", async () => {
        const { records } = await cat(
          `${base}?tool=gzip-file-as-resource&outputType=resource&data=data:text/plain;base64,aGVsbG8=`,
        );
        const resource = records[0].resource as Record<string, string>;
        assert.equal(resource.mimeType, "application/gzip");
        const bytes = Uint8Array.from(atob(resource.blob), (c) => c.charCodeAt(0));
        assert.deepEqual([...bytes.slice(0, 2)], [0x1f, 0x8b]);
      });

      await t.step(
        "get-structured-content adds a structured_result; --json emits only it",
        async () => {
          const { records } = await cat(`${base}?tool=get-structured-content&location=New%20York`);
          const structured = records.find((r) => r.type === "structured_result")!;
          assert.deepEqual(Object.keys(structured.data as object).sort(), [
            "conditions",
            "humidity",
            "temperature",
          ]);
          const json = await cat(`${base}?tool=get-structured-content&location=Chicago`, "--json");
          assert.equal(json.records.length, 1);
          assert.equal(typeof json.records[0].temperature, "number");
        },
      );

      await t.step(
        "get-env, toggle-simulated-logging and toggle-subscriber-updates answer text",
        async () => {
          for (const tool of ["get-env", "toggle-simulated-logging", "toggle-subscriber-updates"]) {
            const { records, code } = await cat(`${base}?tool=${tool}`);
            assert.equal(code, 0, tool);
            assert.equal(records[0].content_type, "text", tool);
          }
        },
      );

      await t.step("trigger-long-running-operation reports progress on stderr", async () => {
        const { records, stderr } = await cat(
          `${base}?tool=trigger-long-running-operation&duration=1&steps=2`,
          "--progress",
        );
        assert.match(String(records[0].text), /completed/);
        assert.match(stderr, /progress 1\/2/);
        assert.match(stderr, /progress 2\/2/);
      });

      await t.step("trigger-elicitation-request is declined without a terminal", async () => {
        const { records, stderr } = await cat(`${base}?tool=trigger-elicitation-request`);
        assert.match(String(records[0].text), /declined/);
        assert.match(stderr, /declined \(not a terminal/);
      });

      await t.step("trigger-url-elicitation prints the URL and declines", async () => {
        const { records, stderr } = await cat(
          `${base}?tool=trigger-url-elicitation&url=https://example.com/consent`,
        );
        assert.match(String(records[0].text), /declined/);
        assert.match(stderr, /https:\/\/example\.com\/consent/);
      });

      await t.step("get-roots-list sees exactly the --root directories", async () => {
        const dir = await tempDir();
        const { records } = await cat(`${base}?tool=get-roots-list`, "--root", dir);
        assert.match(String(records[0].text), new RegExp(`URI: file://${dir}`));
        await Deno.remove(dir);
      });

      // simulate-research-query (task-only) is called as a task: tests/remote/tasks_test.ts.

      await t.step("resources and prompts read through the same session", async () => {
        const resource = await cat(`${base}?resource=demo://resource/dynamic/text/2`);
        assert.equal(resource.records[0].type, "resource_content");
        assert.equal(resource.records[0].uri, "demo://resource/dynamic/text/2");
        const prompt = await cat(`${base}?prompt=simple-prompt`);
        assert.equal(prompt.records[0].type, "prompt_message");
        assert.equal(prompt.records[0].role, "user");
      });
    } finally {
      await server.stop();
    }
  },
});

Deno.test({
  name: "server-everything in sse mode is reached by falling back from Streamable HTTP",
  ignore,
  async fn() {
    const server = await startNodeServer([EVERYTHING!, "sse"]);
    try {
      const source = `mcp+${server.url}/sse?tool=get-tiny-image`;
      const { code, stdout, stderr } = await runJnHere(["cat", source, "--debug"]);
      assert.equal(code, 0, stderr);
      assert.match(stderr, /falling back to legacy SSE/);
      assert.match(stderr, /protocol 2025-\d\d-\d\d, legacy, sse\)/);
      const records = parseNdjson(stdout) as Rec[];
      assert.deepEqual(records.map((r) => r.content_type), ["text", "image", "text"]);
      const progress = await runJnHere([
        "cat",
        `mcp+${server.url}/sse?tool=trigger-long-running-operation&duration=1&steps=2`,
        "--progress",
      ]);
      assert.equal(progress.code, 0, progress.stderr);
      assert.match(progress.stderr, /progress 2\/2/);
    } finally {
      await server.stop();
    }
  },
});

Deno.test({
  name: "server-everything over stdio gives the same records, roots only when asked",
  ignore,
  async fn() {
    const source = `mcp+node://${EVERYTHING}?command=stdio`;
    const structured = await runJnHere([
      "cat",
      `${source}&tool=get-structured-content&location=Chicago`,
    ]);
    assert.equal(structured.code, 0, structured.stderr);
    const records = parseNdjson(structured.stdout) as Rec[];
    assert.equal(records.at(-1)!.type, "structured_result");
    const tools = await runJnHere(["cat", `${source}&list=tools`, "--root", "."]);
    const names = (parseNdjson(tools.stdout) as Rec[]).map((r) => r.name);
    assert.ok(names.includes("get-roots-list"));
  },
});
