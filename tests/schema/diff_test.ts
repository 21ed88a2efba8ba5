import assert from "node:assert/strict";
import {
  behaviouralChange,
  classify,
  diffSchemas,
  type ExpectedTool,
  type SchemaChange,
} from "../../lib/schema/diff.ts";
import type { JsonSchema, ToolInfo } from "../../lib/types.ts";

const str: JsonSchema = { type: "string" };
const int: JsonSchema = { type: "integer" };

function obj(properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema {
  return { type: "object", properties, required };
}

/** The seed's BioMCP v1 `search` tool, as a live listing and as a profile snapshot. */
const V1_SEARCH = obj({ gene: str, disease: str }, ["gene"]);
const v1: ExpectedTool[] = [{ name: "search", inputSchema: V1_SEARCH }];
const live = (...tools: [string, JsonSchema][]): ToolInfo[] =>
  tools.map(([name, inputSchema]) => ({ name, inputSchema }));

/** The essentials of each change, for exact comparisons. */
const brief = (changes: SchemaChange[]) => changes.map((c) => [c.kind, c.path ?? null, c.severity]);
const messages = (changes: SchemaChange[]) => changes.map((c) => c.message);

Deno.test("diffSchemas() reports the seed's v1 → v2 rename as breaking", async (t) => {
  const v2 = live(["search", obj({ query: str, filters: { type: "object" } }, ["query"])]);

  await t.step("a required parameter swapped for one of the same type is a rename", () => {
    const changes = diffSchemas(v1, v2);
    assert.deepEqual(brief(changes), [
      ["optional_removed", "disease", "non-breaking"],
      ["optional_added", "filters", "non-breaking"],
      ["param_renamed", "gene", "breaking"],
    ]);
    assert.deepEqual(messages(changes), [
      "Tool 'search': Optional parameter 'disease' removed",
      "Tool 'search': New optional parameter 'filters' added",
      "Tool 'search': Required parameter 'gene' renamed to 'query'",
    ]);
    assert.equal(changes[2].old, "gene");
    assert.equal(changes[2].new, "query");
    assert.deepEqual(classify(changes), { breaking: 1, nonBreaking: 2, behavioural: 0 });
  });

  await t.step(
    "a required parameter swapped for one of another type is a removal and an addition",
    () => {
      const changes = diffSchemas(
        v1,
        live(["search", obj({ disease: str, query: int }, ["query"])]),
      );
      assert.deepEqual(brief(changes), [
        ["required_removed", "gene", "breaking"],
        ["required_added", "query", "breaking"],
      ]);
    },
  );

  await t.step("two same-typed swaps in one tool are too ambiguous to pair", () => {
    const before = [{ name: "t", inputSchema: obj({ a: str, b: str }, ["a", "b"]) }];
    const changes = diffSchemas(before, live(["t", obj({ c: str, d: str }, ["c", "d"])]));
    assert.deepEqual(brief(changes).map(([kind]) => kind), [
      "required_removed",
      "required_removed",
      "required_added",
      "required_added",
    ]);
  });
});

Deno.test("diffSchemas() finds only non-breaking changes when optional parameters are added", () => {
  const changes = diffSchemas(
    v1,
    live(["search", obj({ ...V1_SEARCH.properties, limit: int, page: int }, ["gene"])]),
  );
  assert.deepEqual(brief(changes), [
    ["optional_added", "limit", "non-breaking"],
    ["optional_added", "page", "non-breaking"],
  ]);
  assert.deepEqual(changes[0].new, int);
  assert.deepEqual(classify(changes), { breaking: 0, nonBreaking: 2, behavioural: 0 });
});

Deno.test("diffSchemas() reports type changes at any depth", async (t) => {
  const before = obj({
    count: str,
    filters: obj({ limit: int, sort: str }, ["limit"]),
    ids: { type: "array", items: str },
    rows: { type: "array", items: obj({ name: str }) },
    maybe: { type: ["string", "null"] },
  });
  const after = obj({
    count: int,
    filters: obj({ limit: str, sort: str }, ["limit"]),
    ids: { type: "array", items: int },
    rows: { type: "array", items: obj({ name: { type: "boolean" } }) },
    maybe: { anyOf: [{ type: "null" }, { type: "string" }] },
  });

  await t.step("top-level, nested, items and items' properties each get one change", () => {
    const changes = diffSchemas([{ name: "t", inputSchema: before }], live(["t", after]));
    assert.deepEqual(brief(changes), [
      ["type_changed", "count", "breaking"],
      ["type_changed", "filters.limit", "breaking"],
      ["items_type_changed", "ids[]", "breaking"],
      ["type_changed", "rows[].name", "breaking"],
    ]);
    assert.equal(
      changes[0].message,
      "Tool 't': Parameter 'count' type changed from 'string' to 'integer'",
    );
    assert.deepEqual([changes[2].old, changes[2].new], ["string", "integer"]);
  });

  await t.step("a type list and an equivalent nullable anyOf are the same type", () => {
    const changes = diffSchemas([{ name: "t", inputSchema: before }], live(["t", after]));
    assert.equal(changes.some((c) => c.path === "maybe"), false);
  });

  await t.step("a type that becomes nullable is changed and reported as a list", () => {
    const changes = diffSchemas(
      v1,
      live(["search", obj({ gene: { type: ["string", "null"] }, disease: str }, ["gene"])]),
    );
    assert.deepEqual(brief(changes), [["type_changed", "gene", "breaking"]]);
    assert.deepEqual(changes[0].new, ["null", "string"]);
  });

  await t.step("a changed type is not descended into", () => {
    const changes = diffSchemas(
      [{ name: "t", inputSchema: before }],
      live(["t", obj({ ...after.properties, filters: str })]),
    );
    assert.deepEqual(changes.filter((c) => c.path?.startsWith("filters")).map((c) => c.path), [
      "filters",
    ]);
  });
});

Deno.test("diffSchemas() tells a narrowed enum from a widened one", async (t) => {
  const mode = (values?: string[]): ToolInfo[] =>
    live(["t", obj({ mode: values ? { type: "string", enum: values } : str })]);
  const expect = (
    values?: string[],
  ): ExpectedTool[] => [{ name: "t", inputSchema: mode(values)[0].inputSchema }];

  await t.step("a value removed is breaking and named", () => {
    const changes = diffSchemas(expect(["fast", "safe", "slow"]), mode(["safe", "slow"]));
    assert.deepEqual(brief(changes), [["enum_narrowed", "mode", "breaking"]]);
    assert.equal(changes[0].message, "Tool 't': Parameter 'mode' no longer accepts 'fast'");
  });
  await t.step("a value added is not breaking", () => {
    const changes = diffSchemas(expect(["safe"]), mode(["safe", "turbo"]));
    assert.deepEqual(brief(changes), [["enum_widened", "mode", "non-breaking"]]);
    assert.equal(changes[0].message, "Tool 't': Parameter 'mode' now also accepts 'turbo'");
  });
  await t.step("a new enum narrows and a dropped one widens", () => {
    assert.deepEqual(brief(diffSchemas(expect(), mode(["a"]))), [[
      "enum_narrowed",
      "mode",
      "breaking",
    ]]);
    assert.deepEqual(brief(diffSchemas(expect(["a"]), mode())), [[
      "enum_widened",
      "mode",
      "non-breaking",
    ]]);
  });
  await t.step("reordered values are no change", () => {
    assert.deepEqual(diffSchemas(expect(["a", "b"]), mode(["b", "a"])), []);
  });
});

Deno.test("diffSchemas() reports removed and added tools", async (t) => {
  const expected: ExpectedTool[] = [{ name: "search", inputSchema: V1_SEARCH }, { name: "fetch" }];
  const now = live(["search", V1_SEARCH], ["variant_search", obj({})]);

  await t.step("a removed tool is breaking, an added one is not", () => {
    const changes = diffSchemas(expected, now);
    assert.deepEqual(brief(changes), [
      ["tool_removed", null, "breaking"],
      ["tool_added", null, "non-breaking"],
    ]);
    assert.deepEqual(messages(changes), ["Tool 'fetch' removed", "Tool 'variant_search' added"]);
  });
  await t.step("an incomplete profile does not report the tools it never listed", () => {
    assert.deepEqual(brief(diffSchemas(expected, now, { complete: false })), [[
      "tool_removed",
      null,
      "breaking",
    ]]);
  });
});

Deno.test("diffSchemas() treats a removed optional parameter by whether the profile uses it", async (t) => {
  const now = live(["search", obj({ gene: str }, ["gene"])]);
  await t.step("unused: non-breaking", () => {
    assert.deepEqual(brief(diffSchemas(v1, now)), [[
      "optional_removed",
      "disease",
      "non-breaking",
    ]]);
  });
  await t.step("used by defaults or examples: breaking", () => {
    const changes = diffSchemas(v1, now, { usedParams: { search: ["disease"] } });
    assert.deepEqual(brief(changes), [["used_param_removed", "disease", "breaking"]]);
    assert.equal(
      changes[0].message,
      "Tool 'search': Parameter 'disease' removed, but the profile uses it",
    );
  });
  await t.step("a used nested path makes its removed parent breaking", () => {
    const expected = [{ name: "t", inputSchema: obj({ filters: obj({ limit: int }) }) }];
    const changes = diffSchemas(expected, live(["t", obj({})]), {
      usedParams: { t: ["filters.limit"] },
    });
    assert.deepEqual(brief(changes), [["used_param_removed", "filters", "breaking"]]);
  });
});

Deno.test("diffSchemas() falls back to the seed's parameters form without a snapshot", async (t) => {
  const seedV1: ExpectedTool[] = [{
    name: "search",
    parameters: {
      gene: { type: "string", required: true, description: "Gene symbol (e.g., BRAF)" },
      disease: { description: "Filter by disease name" },
    },
  }];
  const v2 = live([
    "search",
    obj({ query: { type: "string", description: "Free text" }, disease: int }, ["query"]),
  ]);

  await t.step("the seed's example rename is found", () => {
    const changes = diffSchemas(seedV1, v2);
    assert.deepEqual(brief(changes), [["param_renamed", "gene", "breaking"]]);
    assert.equal(changes[0].message, "Tool 'search': Required parameter 'gene' renamed to 'query'");
  });
  await t.step("what the profile did not record (type, descriptions) is not compared", () => {
    assert.equal(diffSchemas(seedV1, v2).some((c) => c.path === "disease"), false);
  });
  await t.step("a recorded type is compared", () => {
    const typed: ExpectedTool[] = [{ name: "search", parameters: { disease: { type: "string" } } }];
    assert.deepEqual(brief(diffSchemas(typed, live(["search", obj({ disease: int })]))), [
      ["type_changed", "disease", "breaking"],
    ]);
  });
});

Deno.test("diffSchemas() reports description changes as non-breaking", () => {
  const expected: ExpectedTool[] = [{
    name: "search",
    description: "Search genes",
    inputSchema: obj({ gene: { type: "string", description: "Symbol" } }, ["gene"]),
  }];
  const now: ToolInfo[] = [{
    name: "search",
    description: "Search genes and variants",
    inputSchema: obj({ gene: { type: "string", description: "HGNC symbol" } }, ["gene"]),
  }];
  const changes = diffSchemas(expected, now);
  assert.deepEqual(brief(changes), [
    ["description_changed", null, "non-breaking"],
    ["description_changed", "gene", "non-breaking"],
  ]);
  assert.deepEqual(messages(changes), [
    "Tool 'search': Description changed",
    "Tool 'search': Description of parameter 'gene' changed",
  ]);
  assert.deepEqual([changes[1].old, changes[1].new], ["Symbol", "HGNC symbol"]);
});

Deno.test("diffSchemas() reports a parameter becoming required or optional", () => {
  const changes = diffSchemas(v1, live(["search", obj({ gene: str, disease: str }, ["disease"])]));
  assert.deepEqual(brief(changes), [
    ["became_required", "disease", "breaking"],
    ["became_optional", "gene", "non-breaking"],
  ]);
  assert.equal(changes[0].message, "Tool 'search': Parameter 'disease' became required");
});

Deno.test("diffSchemas() follows local $refs and stops at cycles", () => {
  const tree = (leaf: JsonSchema): JsonSchema => ({
    type: "object",
    properties: { root: { $ref: "#/$defs/Node" } },
    $defs: {
      Node: obj({ value: leaf, children: { type: "array", items: { $ref: "#/$defs/Node" } } }),
    },
  });
  const changes = diffSchemas([{ name: "t", inputSchema: tree(str) }], live(["t", tree(int)]));
  assert.deepEqual(brief(changes), [["type_changed", "root.value", "breaking"]]);
});

Deno.test("diffSchemas() looks through pydantic's nullable $ref unions", () => {
  const pydantic = (limit: JsonSchema, required: string[]): JsonSchema => ({
    type: "object",
    properties: {
      filters: { anyOf: [{ $ref: "#/$defs/Filters" }, { type: "null" }], default: null },
    },
    $defs: { Filters: { type: "object", properties: { limit: limit, near: str }, required } },
  });
  const changes = diffSchemas(
    [{ name: "t", inputSchema: pydantic(int, []) }],
    live(["t", pydantic(str, ["near"])]),
  );
  assert.deepEqual(brief(changes), [
    ["type_changed", "filters.limit", "breaking"],
    ["became_required", "filters.near", "breaking"],
  ]);
});

Deno.test("diffSchemas() reports a required parameter added inside a nested object", () => {
  const expected = [{ name: "t", inputSchema: obj({ filters: { type: "object" } }) }];
  const changes = diffSchemas(
    expected,
    live(["t", obj({ filters: obj({ limit: int }, ["limit"]) })]),
  );
  assert.deepEqual(brief(changes), [["required_added", "filters.limit", "breaking"]]);
  assert.equal(changes[0].message, "Tool 't': New required parameter 'filters.limit' added");
});

Deno.test("diffSchemas() finds nothing between equal schemas and is independent of input order", () => {
  const a: ToolInfo[] = live(["b", obj({ y: str, x: int }, ["y"])], ["a", V1_SEARCH]);
  const expected: ExpectedTool[] = a.map((t) => ({ name: t.name, inputSchema: t.inputSchema }));
  assert.deepEqual(diffSchemas(expected, [...a].reverse()), []);

  const now = live(["z", obj({ q: int }, ["q"])], ["b", obj({ w: int })], ["a", obj({})]);
  const forward = diffSchemas(expected, now);
  assert.deepEqual(diffSchemas([...expected].reverse(), [...now].reverse()), forward);
  assert.deepEqual(forward.map((c) => `${c.tool}:${c.path ?? ""}`), [
    "a:disease",
    "a:gene",
    "b:w",
    "b:x",
    "b:y",
    "z:",
  ]);
});

Deno.test("diffSchemas() keeps parameters named like Object.prototype members apart", () => {
  const expected = [{ name: "t", inputSchema: obj({ constructor: str }) }];
  assert.deepEqual(brief(diffSchemas(expected, live(["t", obj({ toString: str })]))), [
    ["optional_removed", "constructor", "non-breaking"],
    ["optional_added", "toString", "non-breaking"],
  ]);
});

Deno.test("behaviouralChange() compares media types, not their parameters", async (t) => {
  await t.step("a different media type is a behavioural change", () => {
    const change = behaviouralChange("search", "text/plain", "application/json");
    assert.equal(change?.severity, "behavioural");
    assert.equal(
      change?.message,
      "Tool 'search': Output format changed from 'text/plain' to 'application/json'",
    );
  });
  await t.step("charset, case and the json/text aliases do not count", () => {
    assert.equal(behaviouralChange("s", "text/plain", "Text/Plain; charset=utf-8"), undefined);
    assert.equal(behaviouralChange("s", "json", "application/json"), undefined);
  });
  await t.step("nothing is known without both sides", () => {
    assert.equal(behaviouralChange("s", undefined, "application/json"), undefined);
    assert.equal(behaviouralChange("s", "text/plain", undefined), undefined);
  });
  await t.step("diffSchemas() checks observed media types against output_format", () => {
    const expected: ExpectedTool[] = [{
      name: "search",
      inputSchema: V1_SEARCH,
      output_format: "text/plain",
    }];
    const changes = diffSchemas(expected, live(["search", V1_SEARCH]), {
      observedMimeTypes: { search: "application/json" },
    });
    assert.deepEqual(brief(changes), [["output_format_changed", null, "behavioural"]]);
    assert.deepEqual(classify(changes), { breaking: 0, nonBreaking: 0, behavioural: 1 });
  });
});

Deno.test("diffSchemas() classifies outputSchema changes from the reader's side", async (t) => {
  const hit = obj({ id: str, title: str, kind: { type: "string", enum: ["a", "b"] } }, [
    "id",
    "title",
  ]);
  const before = obj({ hits: { type: "array", items: hit }, total: int }, ["hits", "total"]);
  const want: ExpectedTool[] = [{ name: "t", inputSchema: obj({}), outputSchema: before }];
  const diff = (outputSchema: JsonSchema | undefined) =>
    diffSchemas(want, [{ name: "t", inputSchema: obj({}), outputSchema }]);
  // deno-lint-ignore no-explicit-any
  const clone = () => structuredClone(before) as Record<string, any>;

  await t.step("equal: nothing", () => assert.deepEqual(diff(before), []));
  await t.step("removed, renamed, optional, type: breaking; added: non-breaking", () => {
    const now = clone();
    delete now.properties.total;
    now.properties.count = { type: "string" };
    const item = now.properties.hits.items;
    item.properties = { id: str, name: str, kind: item.properties.kind, extra: int };
    item.required = ["name"];
    assert.deepEqual(brief(diff(now)), [
      ["output_field_added", "count", "non-breaking"],
      ["output_field_added", "hits[].extra", "non-breaking"],
      ["output_field_optional", "hits[].id", "breaking"],
      ["output_field_renamed", "hits[].title", "breaking"],
      ["output_field_removed", "total", "breaking"],
    ]);
    const type = clone();
    type.properties.total = { type: "number" };
    assert.deepEqual(messages(diff(type)), [
      "Tool 't': Output field 'total' type changed from 'integer' to 'number'",
    ]);
  });
  await t.step("an enum widened is breaking, narrowed is not", () => {
    const wider = clone();
    wider.properties.hits.items.properties.kind.enum = ["a", "b", "c"];
    assert.deepEqual(messages(diff(wider)), [
      "Tool 't': Output field 'hits[].kind' may now also be 'c'",
    ]);
    assert.equal(diff(wider)[0].severity, "breaking");
    const narrower = clone();
    narrower.properties.hits.items.properties.kind.enum = ["a"];
    assert.deepEqual(brief(diff(narrower)), [
      ["output_enum_narrowed", "hits[].kind", "non-breaking"],
    ]);
  });
  await t.step("the output schema removed is breaking", () => {
    assert.deepEqual(brief(diff(undefined)), [["output_schema_removed", null, "breaking"]]);
  });
  await t.step("a $ref refactor and reordered types are nothing; other details behavioural", () => {
    const refs = clone();
    refs.$defs = { Hit: refs.properties.hits.items };
    refs.properties.hits.items = { $ref: "#/$defs/Hit" };
    refs.properties.total = { type: ["integer"] };
    assert.deepEqual(diff(refs), []);
    const strict = clone();
    strict.additionalProperties = false;
    assert.deepEqual(brief(diff(strict)), [["output_schema_changed", null, "behavioural"]]);
  });
  await t.step("not compared without a snapshot", () => {
    const changes = diffSchemas([{ name: "t", parameters: {} }], [{
      name: "t",
      inputSchema: obj({}),
      outputSchema: before,
    }]);
    assert.deepEqual(changes, []);
  });
  await t.step("one added to a snapshot that had none is behavioural", () => {
    const changes = diffSchemas([{ name: "t", inputSchema: obj({}) }], [{
      name: "t",
      inputSchema: obj({}),
      outputSchema: before,
    }]);
    assert.deepEqual(brief(changes), [["output_schema_changed", null, "behavioural"]]);
    assert.equal(changes[0].message, "Tool 't': Output schema added (results are now structured)");
  });
});
