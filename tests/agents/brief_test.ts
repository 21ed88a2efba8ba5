/**
 * `--format brief` (lib/output/brief.ts): smaller than `--format text` and
 * `--format json` for the demo server and server-everything, yet complete
 * enough to call every tool from — every parameter's name, required-ness,
 * type and enum values are on its tool's line — with nested fields spelled
 * out to a depth, and server text kept to one visible line per item.
 */

import assert from "node:assert/strict";
import { inspect, type Inventory, open, type ToolInfo } from "../../mod.ts";
import { formatBrief, MAX_DEPTH, toolLine } from "../../lib/output/brief.ts";
import { formatInventory } from "../../lib/output/human.ts";
import { style } from "../../lib/output/style.ts";
import type { JsonSchema } from "../../lib/types.ts";
import { baseEnv } from "../helpers.ts";
import { serverEverything, serverMemory } from "../remote/support.ts";

const EVERYTHING = await serverEverything();

async function inventoryOf(source: string): Promise<Inventory> {
  await using conn = await open(source, { cwd: Deno.cwd(), env: baseEnv() });
  return await inspect(conn);
}

const bytes = (text: string) => new TextEncoder().encode(text).length;

/** The token a parameter's type must show on its tool's line. */
function typeTokens(schema: JsonSchema): string[] {
  if (Array.isArray(schema.enum)) return schema.enum.map((value) => JSON.stringify(value));
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  return types.filter((type): type is string => typeof type === "string").map((type) =>
    type === "array" ? "[]" : type === "object" ? (schema.properties ? "{" : "object") : type
  );
}

/** Fails unless every parameter of `tool` is on its line: name, `?` when optional, type, enum. */
function assertCallable(tool: ToolInfo, line: string): void {
  const required = new Set(tool.inputSchema.required ?? []);
  assert.ok(line.startsWith(`${tool.name}(`), line);
  for (const [name, prop] of Object.entries(tool.inputSchema.properties ?? {})) {
    const head = `${name}${required.has(name) ? "" : "?"}: `;
    const at = line.indexOf(head);
    assert.ok(at >= 0, `${tool.name}: "${head}" missing from ${line}`);
    const rest = line.slice(at + head.length);
    for (const token of typeTokens(prop)) {
      assert.ok(rest.includes(token), `${tool.name}.${name}: "${token}" missing from ${rest}`);
    }
    if (prop.default !== undefined) {
      assert.ok(rest.includes(`= ${JSON.stringify(prop.default)}`), `${tool.name}.${name} default`);
    }
  }
}

for (const [label, source] of [["the demo server", "@demo"], ["server-everything", ""]] as const) {
  Deno.test({
    name: `brief is the smallest listing of ${label}, and every tool can be called from it`,
    ignore: label === "server-everything" && EVERYTHING === undefined,
    fn: async () => {
      const inventory = await inventoryOf(source || `mcp+node://${EVERYTHING}`);
      assert.ok(inventory.tools.length > 0);
      const brief = formatBrief(inventory);
      const text = formatInventory(inventory, style(false));
      const json = JSON.stringify(inventory, null, 2) + "\n";
      assert.ok(bytes(brief) < bytes(text), `brief ${bytes(brief)} ≥ text ${bytes(text)}`);
      assert.ok(bytes(brief) < bytes(json), `brief ${bytes(brief)} ≥ json ${bytes(json)}`);
      const lines = brief.split("\n");
      for (const tool of inventory.tools) {
        const line = lines.find((l) => l.startsWith(`${tool.name}(`));
        assert.ok(line, `no line for ${tool.name}`);
        assertCallable(tool, line);
      }
      for (const resource of inventory.resources) {
        assert.ok(lines.some((l) => l.startsWith(`${resource.uri} `) || l === resource.uri));
      }
      for (const prompt of inventory.prompts) {
        assert.ok(lines.some((l) => l.startsWith(`${prompt.name}(`)), prompt.name);
      }
    },
  });
}

Deno.test("nested object fields are spelled out, to a depth", () => {
  const entity = {
    type: "object",
    properties: {
      name: { type: "string" },
      type: { type: "string" },
      observations: { type: "array", items: { type: "string" } },
    },
    required: ["name", "type", "observations"],
  };
  const tool: ToolInfo = {
    name: "create_entities",
    description: "Create entities. More text here.",
    inputSchema: {
      type: "object",
      properties: { entities: { type: "array", items: entity } },
      required: ["entities"],
    },
  };
  assert.equal(
    toolLine(tool),
    "create_entities(entities: {name: string, type: string, observations: string[]}[]) — Create entities.",
  );
  let deep: JsonSchema = { type: "string" };
  for (let i = 0; i < MAX_DEPTH + 2; i++) {
    deep = { type: "object", properties: { x: deep }, required: ["x"] };
  }
  const line = toolLine({ name: "d", inputSchema: { type: "object", properties: { d: deep } } });
  assert.equal(line, `d(d?: ${"{x: ".repeat(MAX_DEPTH)}object${"}".repeat(MAX_DEPTH)})`);
});

Deno.test("refs (a cycle by its name), unions, nullable types, formats, maps and odd keys read as types", () => {
  const tool: ToolInfo = {
    name: "t",
    inputSchema: {
      type: "object",
      $defs: {
        point: { type: "object", properties: { x: { type: "number" }, y: { type: "number" } } },
        node: { type: "object", properties: { next: { $ref: "#/$defs/node" } } },
      },
      properties: {
        at: { $ref: "#/$defs/point" },
        list: { $ref: "#/$defs/node" },
        when: { type: ["string", "null"], format: "date-time" },
        either: { anyOf: [{ type: "integer" }, { type: "array", items: { type: "string" } }] },
        tags: { type: "object", additionalProperties: { type: "string" } },
        mode: { const: "fast" },
        "odd key": { type: "boolean", default: true },
        many: { type: "array", items: { anyOf: [{ type: "string" }, { type: "number" }] } },
      },
      required: ["at"],
    },
  };
  assert.equal(
    toolLine(tool),
    "t(at: {x?: number, y?: number}, list?: {next?: node}, " +
      "when?: string<date-time>|null, either?: integer|string[], tags?: {[key: string]: string}, " +
      'mode?: "fast", "odd key"?: boolean = true, many?: (string|number)[])',
  );
});

Deno.test("server text stays one visible line per item; empty sections are left out", () => {
  const hostile = "\x1b]0;pwned\x07\x1b[31mred\r\x9b2J\u202eevil\nsecond line";
  const inventory: Inventory = {
    server: "x",
    transport: "stdio",
    serverInfo: {},
    capabilities: {},
    tools: [{
      name: `bad${hostile}`,
      description: hostile,
      inputSchema: {
        type: "object",
        properties: { [`p${hostile}`]: { enum: [hostile] } },
      },
    }],
    resources: [{ uri: `x://${hostile}`, name: "r", description: hostile }],
    resource_templates: [],
    prompts: [{ name: hostile, arguments: [{ name: hostile, required: true }] }],
  };
  const brief = formatBrief(inventory);
  const lines = brief.trimEnd().split("\n");
  assert.deepEqual(lines.map((line) => line.split(/[:(]/)[0]).filter((l) => !l.includes("bad")), [
    "tools",
    "resources",
    "x",
    "prompts",
    "\\x1b]0;pwned\\x07\\x1b[31mred\\x0d\\x9b2J\\u202eevil\\nsecond line",
  ]);
  assert.equal(lines.length, 6);
  // deno-lint-ignore no-control-regex
  assert.doesNotMatch(brief.replaceAll("\n", ""), /[\x00-\x1f\x7f-\x9f\u202e]/);
  assert.equal(formatBrief({ ...inventory, tools: [], resources: [], prompts: [] }), "");
});

const MEMORY = await serverMemory();

Deno.test({
  name: "the memory server's nested shapes are on its tools' lines (entities, relations)",
  ignore: MEMORY === undefined,
  fn: async () => {
    const dir = await Deno.makeTempDir();
    try {
      await using conn = await open(`mcp+node://${MEMORY}`, {
        cwd: dir,
        env: { ...baseEnv(), MEMORY_FILE_PATH: `${dir}/memory.jsonl` },
        envPassthrough: ["MEMORY_FILE_PATH"],
      });
      const inventory = await inspect(conn);
      const brief = formatBrief(inventory);
      const line = (name: string) => brief.split("\n").find((l) => l.startsWith(`${name}(`)) ?? "";
      assert.match(
        line("create_entities"),
        /^create_entities\(entities: \{name: string, entityType: string, observations: string\[\]\}\[\]\)/,
      );
      assert.match(
        line("create_relations"),
        /^create_relations\(relations: \{from: string, to: string, relationType: string\}\[\]\)/,
      );
      assert.match(
        line("add_observations"),
        /^add_observations\(observations: \{entityName: string, contents: string\[\]\}\[\]\)/,
      );
      for (const tool of inventory.tools) assertCallable(tool, line(tool.name));
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "server-everything's nested shapes (structured results) are on its lines",
  ignore: EVERYTHING === undefined,
  fn: async () => {
    const brief = formatBrief(await inventoryOf(`mcp+node://${EVERYTHING}`));
    const line = brief.split("\n").find((l) => l.startsWith("get-structured-content(")) ?? "";
    assert.match(line, /→ \{temperature: number, conditions: string, humidity: number\}/);
  },
});
