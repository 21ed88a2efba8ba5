/**
 * `jn inspect` shows what it can (issue #14): each list stands on its own,
 * tool schemas come out exactly as the server sent them, and a tool the
 * SDK's types reject costs only that tool. Against the fixture
 * tests/fixtures/servers/sections.mjs, over stdio, in both protocol eras.
 */

import assert from "node:assert/strict";
import { FIXTURES, runJnHere } from "../helpers.ts";

const SERVER = `mcp+node://${FIXTURES}/servers/sections.mjs`;
const source = (...switches: string[]) =>
  switches.length === 0 ? SERVER : `${SERVER}?${switches.map((s) => `command=${s}`).join("&")}`;
/** `src` with more query keys. */
const query = (src: string, keys: string) => `${src}${src.includes("?") ? "&" : "?"}${keys}`;

type Json = Record<string, unknown>;
type Tool = { name: string; inputSchema: Json; execution?: Json };

Deno.test("a list that fails costs only itself", async (t) => {
  await t.step("templates -32601 and resources failing: exit 0, tools listed", async () => {
    const run = await runJnHere([
      "inspect",
      "--format",
      "json",
      source("--templates-error", "--resources-error"),
    ]);
    assert.equal(run.code, 0, run.stderr);
    const inventory = JSON.parse(run.stdout);
    assert.deepEqual(inventory.tools.map((tool: Tool) => tool.name), [
      "raw",
      "task_only",
      "echo",
      "log",
    ]);
    assert.deepEqual(inventory.resources, []);
    assert.deepEqual(inventory.resource_templates, []);
    assert.equal(inventory.prompts[0].name, "greet");
    assert.deepEqual(inventory.errors, {
      resources: "The server answered resources/list with error -32603: backing service is down",
      resource_templates:
        "The server answered resources/templates/list with error -32601: Method not found",
    });
    const notes = run.stderr.split("\n").filter((line) => line.includes("listed:"));
    assert.deepEqual(notes, [
      "jn: warning: no resources listed: The server answered resources/list with error -32603: backing service is down",
      "jn: warning: no resource templates listed: The server answered resources/templates/list with error -32601: Method not found",
    ]);
  });

  await t.step("the text format says which lists failed and why", async () => {
    const run = await runJnHere(["inspect", source("--templates-error")]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(
      run.stdout,
      /^Resource templates\n {2}not listed: The server answered resources\/templates\/list with error -32601: Method not found$/m,
    );
    assert.match(run.stdout, /^Resources \(1\)$/m);
    assert.match(run.stdout, /^ {6}task-only: jn calls it as a task$/m);
    // A `$ref` is named, a property called `__proto__` is a parameter like any other.
    assert.match(run.stdout, /^ {2}raw\(at: point, __proto__\?: string, extra\?: string\)$/m);
  });

  await t.step("tools failing: what was gathered is printed, then exit 5", async () => {
    const run = await runJnHere(["inspect", "--format", "json", source("--tools-error")]);
    assert.equal(run.code, 5, run.stderr);
    const inventory = JSON.parse(run.stdout);
    assert.deepEqual(inventory.tools, []);
    assert.equal(inventory.resources[0].uri, "sections://one");
    assert.match(inventory.errors.tools, /tools\/list with error -32603: backing service is down/);
    assert.match(
      run.stderr,
      /^jn: The server answered tools\/list with error -32603: backing service is down$/m,
    );
  });

  await t.step("every list failing: no inventory, exit 5", async () => {
    const run = await runJnHere([
      "inspect",
      source("--tools-error", "--resources-error", "--templates-error", "--prompts-error"),
    ]);
    assert.equal(run.code, 5);
    assert.equal(run.stdout, "");
    assert.match(run.stderr, /tools\/list with error -32603/);
  });

  await t.step("a list the SDK rejects whole is one line, not a zod dump", async () => {
    const run = await runJnHere(["inspect", source("--modern", "--no-cache-fields")]);
    assert.equal(run.code, 5);
    const lines = run.stderr.trim().split("\n")
      .filter((line) => !line.startsWith("jn: warning:") && !line.startsWith("hint:"));
    assert.equal(lines.length, 1, run.stderr);
    assert.match(
      lines[0],
      /^jn: The server sent a malformed answer to tools\/list: Invalid result for tools\/list: ttlMs: .*; cacheScope: /,
    );
  });

  await t.step("jn mcp tools fails when the tools do", async () => {
    const run = await runJnHere(["mcp", "tools", source("--tools-error")]);
    assert.equal(run.code, 5);
    assert.equal(run.stdout, "");
  });
});

/** The `raw` tool's inputSchema as the fixture writes it (own `__proto__` key and all). */
const RAW_SCHEMA = `{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "type": "object",
  "$defs": {"point": {"type": "object", "properties": {"x": {"type": "number"}}}},
  "properties": {
    "at": {"$ref": "#/$defs/point"},
    "__proto__": {"type": "string", "description": "a key named __proto__"},
    "extra": {"type": "string", "x-jn-unknown": {"kept": true}}
  },
  "required": ["at"],
  "additionalProperties": false,
  "x-vendor-keyword": [1, 2, 3]
}`;

Deno.test("tool schemas come out as the server sent them", async (t) => {
  for (const era of ["legacy", "modern"]) {
    await t.step(`${era}: $schema, $defs, $ref, unknown keywords and __proto__ kept`, async () => {
      const run = await runJnHere([
        "inspect",
        "--format",
        "json",
        era === "modern" ? source("--modern") : source(),
      ]);
      assert.equal(run.code, 0, run.stderr);
      const inventory = JSON.parse(run.stdout);
      assert.equal(inventory.protocolVersion, era === "modern" ? "2026-07-28" : "2025-11-25");
      const raw = inventory.tools.find((tool: Tool) => tool.name === "raw") as Tool;
      // Compared as text: a deepEqual would not see a lost own `__proto__` key.
      assert.equal(JSON.stringify(raw.inputSchema), JSON.stringify(JSON.parse(RAW_SCHEMA)));
      assert.ok(Object.hasOwn(raw.inputSchema.properties as Json, "__proto__"));
      const taskOnly = inventory.tools.find((tool: Tool) => tool.name === "task_only") as Tool;
      assert.deepEqual(taskOnly.execution, { taskSupport: "required" });
      // The two tools the SDK's types reject are left out, each with a warning.
      assert.match(
        run.stderr,
        /^jn: warning: the server's tool "bad_type" is left out: inputSchema\.type: .*expected "object"/m,
      );
      assert.match(
        run.stderr,
        /^jn: warning: the server's tool "bad_required" is left out: inputSchema\.required: /m,
      );
    });
  }

  await t.step("calling a tool that was left out says why, not 'not found' (exit 5)", async () => {
    const run = await runJnHere(["cat", query(source(), "tool=bad_type")]);
    assert.equal(run.code, 5, run.stderr);
    assert.match(
      run.stderr,
      /Tool "bad_type" of server .* cannot be called: its definition breaks/,
    );
    assert.doesNotMatch(run.stderr, /not found/);
  });

  await t.step("the schema hash reads the raw schema (the seed's Python agrees)", async () => {
    const run = await runJnHere(["mcp", "hash", "--format", "json", source()]);
    assert.equal(run.code, 0, run.stderr);
    const hashes = JSON.parse(run.stdout).tools;
    assert.deepEqual(Object.keys(hashes), ["echo", "log", "raw", "task_only"]);
    assert.equal(hashes.raw, await pythonToolHash("raw", RAW_SCHEMA));
  });
});

/** The seed's per-tool signature hash, computed by Python from the schema's JSON text. */
async function pythonToolHash(name: string, schemaJson: string): Promise<string> {
  const script = `
import hashlib, json, sys
schema = json.loads(sys.stdin.read())
props = schema.get("properties", {})
sig = {"name": ${JSON.stringify(name)}, "required": sorted(schema.get("required", [])),
       "types": {k: (v.get("type") if isinstance(v, dict) else None) for k, v in props.items()}}
print(hashlib.md5(json.dumps(sig, sort_keys=True).encode()).hexdigest())
`;
  const child = new Deno.Command("python3", {
    args: ["-c", script],
    stdin: "piped",
    stdout: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(schemaJson));
  await writer.close();
  const output = await child.output();
  assert.ok(output.success);
  return new TextDecoder().decode(output.stdout).trim();
}

Deno.test("the 2026-07-28 era: results without resultType, server logs on stderr", async (t) => {
  await t.step("a server that leaves resultType out is served (SEP-2322)", async () => {
    const run = await runJnHere(["cat", query(source("--modern"), "tool=echo&text=modern")]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(JSON.parse(run.stdout).text, "modern");
  });

  for (const era of ["legacy", "modern"]) {
    await t.step(`${era}: a log message reaches stderr`, async () => {
      const base = era === "modern" ? source("--modern") : source();
      const run = await runJnHere(["cat", query(base, "tool=log&message=hello%20logs")]);
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stderr, /^\[node [^\]]*sections\.mjs\] info sections: hello logs$/m);
    });
  }

  await t.step("modern: --log-level goes in each request's _meta", async () => {
    const run = await runJnHere([
      "cat",
      query(source("--modern"), "tool=log&level=info&message=quiet"),
      "--log-level",
      "warning",
      "--debug",
    ]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /"io\.modelcontextprotocol\/logLevel":"warning"/);
    assert.doesNotMatch(run.stderr, /logging\/setLevel/);
    assert.doesNotMatch(run.stderr, /info sections: quiet/);
  });
});
