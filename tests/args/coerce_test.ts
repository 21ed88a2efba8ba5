import assert from "node:assert/strict";
import { ArgumentError, type ArgumentViolation } from "../../lib/errors.ts";
import type { JsonSchema } from "../../lib/types.ts";
import { type ArgPairs, collectArgs } from "../../lib/args/collect.ts";
import { sdkAjvEngines } from "../../lib/session/ajv_engines.ts";
import { coerceArgs, prepareArguments } from "../../lib/args/coerce.ts";
import { createSchemaEngine } from "../../lib/args/validate.ts";
import type { RawArg } from "../../lib/uri/source.ts";

/** The engine of the npm ajv package, created explicitly (the CLI uses the SDK's copy). */
const engine = createSchemaEngine(await sdkAjvEngines());

function query(text: string): RawArg[] {
  return text.split("&").map((pair) => {
    const eq = pair.indexOf("=");
    return { key: pair.slice(0, eq), value: pair.slice(eq + 1) };
  });
}

function args(text: string, json?: Record<string, unknown>): ArgPairs {
  return collectArgs({ query: text === "" ? [] : query(text), args: json && JSON.stringify(json) });
}

function object(properties: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return { type: "object", properties, ...extra } as JsonSchema;
}

function violationsOf(fn: () => unknown): ArgumentViolation[] {
  try {
    fn();
  } catch (error) {
    if (error instanceof ArgumentError) return error.violations;
    throw error;
  }
  throw new Error("expected an ArgumentError");
}

/** [what, property schema, raw text, expected value] */
const CONVERSIONS: [string, unknown, string, unknown][] = [
  ["integer", { type: "integer" }, "5", 5],
  ["negative integer", { type: "integer" }, "-12", -12],
  ["number with fraction", { type: "number" }, "1.5", 1.5],
  ["number with exponent", { type: "number" }, "1e3", 1000],
  ["number with leading dot", { type: "number" }, ".5", 0.5],
  ["integer for a number", { type: "number" }, "-7", -7],
  ["boolean true", { type: "boolean" }, "true", true],
  ["boolean false", { type: "boolean" }, "false", false],
  ["null", { type: "null" }, "null", null],
  ["string stays", { type: "string" }, "007", "007"],
  ["string with plus", { type: "string" }, "C++", "C++"],
  ["JSON array", { type: "array", items: { type: "integer" } }, "[1,2]", [1, 2]],
  ["single value as one-item array", { type: "array", items: { type: "integer" } }, "3", [3]],
  ["comma text as one string item", { type: "array", items: { type: "string" } }, "a,b", ["a,b"]],
  ["JSON object", { type: "object" }, '{"a":{"b":1}}', { a: { b: 1 } }],
  ["type list string|null: null", { type: ["string", "null"] }, "null", null],
  ["type list string|null: text", { type: ["string", "null"] }, "x", "x"],
  ["type list integer|string: digits", { type: ["integer", "string"] }, "5", 5],
  ["type list integer|string: text", { type: ["integer", "string"] }, "five", "five"],
  ["anyOf integer|null", { anyOf: [{ type: "integer" }, { type: "null" }] }, "7", 7],
  ["oneOf boolean|string", { oneOf: [{ type: "boolean" }, { type: "string" }] }, "true", true],
  [
    "anyOf string|array prefers string",
    {
      anyOf: [{ type: "string" }, { type: "array", items: { type: "string" } }],
    },
    "x",
    "x",
  ],
  [
    "anyOf string|array takes a JSON array",
    {
      anyOf: [{ type: "string" }, { type: "array", items: { type: "string" } }],
    },
    '["x"]',
    ["x"],
  ],
  ["enum of numbers without type", { enum: [1, 2, 3] }, "2", 2],
  ["const boolean without type", { const: true }, "true", true],
  ["no type stays a string", { description: "anything" }, "5", "5"],
  ["boolean schema true stays a string", true, "5", "5"],
];

Deno.test("coerceArgs() converts a raw string by the declared type", async (t) => {
  for (const [what, schema, text, expected] of CONVERSIONS) {
    await t.step(`${what}: ${JSON.stringify(text)} -> ${JSON.stringify(expected)}`, () => {
      const value = coerceArgs(args(`p=${text}`), { schema: object({ p: schema }) });
      assert.deepEqual(value, { p: expected });
    });
  }
});

/** [what, property schema, raw text]: conversion fails and the text stays a string. */
const UNCONVERTED: [string, unknown, string][] = [
  ["fraction for integer", { type: "integer" }, "1.5"],
  ["exponent for integer", { type: "integer" }, "1e3"],
  ["trailing .0 for integer", { type: "integer" }, "1.0"],
  ["trailing dot for integer", { type: "integer" }, "1."],
  ["hex for integer", { type: "integer" }, "0x10"],
  ["unsafe integer", { type: "integer" }, "99999999999999999999"],
  ["word for number", { type: "number" }, "abc"],
  ["Infinity for number", { type: "number" }, "Infinity"],
  ["1 for boolean", { type: "boolean" }, "1"],
  ["True for boolean", { type: "boolean" }, "True"],
  ["empty for null", { type: "null" }, ""],
  ["broken JSON for object", { type: "object" }, "{a:1}"],
  ["array literal for object", { type: "object" }, "[1]"],
];

Deno.test("coerceArgs() leaves text that does not convert as a string", async (t) => {
  for (const [what, schema, text] of UNCONVERTED) {
    await t.step(what, () => {
      const value = coerceArgs(args(`p=${text}`), { schema: object({ p: schema }) });
      assert.deepEqual(value, { p: text });
    });
  }
});

Deno.test("coerceArgs() converts each item of a repeated key by items", async (t) => {
  await t.step("integers", () => {
    const schema = object({ ids: { type: "array", items: { type: "integer" } } });
    assert.deepEqual(coerceArgs(args("ids=1&ids=2&ids=3"), { schema }), { ids: [1, 2, 3] });
  });
  await t.step("a tuple by position (draft-07 items array)", () => {
    const schema = object({
      pair: { type: "array", items: [{ type: "string" }, { type: "integer" }] },
    });
    assert.deepEqual(coerceArgs(args("pair=07&pair=07"), { schema }), { pair: ["07", 7] });
  });
  await t.step("a tuple by position (2020-12 prefixItems)", () => {
    const schema = object({
      pair: { type: "array", prefixItems: [{ type: "boolean" }], items: { type: "number" } },
    });
    assert.deepEqual(coerceArgs(args("pair=true&pair=2.5"), { schema }), { pair: [true, 2.5] });
  });
  await t.step("an undescribed key becomes a list of strings", () => {
    assert.deepEqual(coerceArgs(args("x=1&x=2"), { schema: object({}) }), { x: ["1", "2"] });
  });
});

Deno.test("coerceArgs() follows local $ref to $defs and definitions", async (t) => {
  await t.step("$defs", () => {
    const schema = object({ n: { $ref: "#/$defs/Count" } }, {
      $defs: { Count: { type: "integer", minimum: 0 } },
    });
    assert.deepEqual(coerceArgs(args("n=4"), { schema }), { n: 4 });
  });
  await t.step("definitions, through a chain of refs, inside anyOf", () => {
    const schema = object({ n: { anyOf: [{ $ref: "#/definitions/A" }, { type: "null" }] } }, {
      definitions: { A: { $ref: "#/definitions/B" }, B: { type: "number" } },
    });
    assert.deepEqual(coerceArgs(args("n=4.5"), { schema }), { n: 4.5 });
  });
  await t.step("array items by $ref", () => {
    const schema = object({ tags: { type: "array", items: { $ref: "#/$defs/T" } } }, {
      $defs: { T: { type: "boolean" } },
    });
    assert.deepEqual(coerceArgs(args("tags=true&tags=false"), { schema }), {
      tags: [true, false],
    });
  });
  await t.step("a ref loop does not hang", () => {
    const schema = object({ n: { $ref: "#/$defs/A" } }, {
      $defs: { A: { $ref: "#/$defs/B" }, B: { $ref: "#/$defs/A" } },
    });
    assert.deepEqual(coerceArgs(args("n=1"), { schema }), { n: "1" });
  });
});

Deno.test("coerceArgs() passes --args values through unchanged", () => {
  const schema = object({ n: { type: "integer" }, s: { type: "string" } });
  assert.deepEqual(coerceArgs(args("", { n: "5", s: 5 }), { schema }), { n: "5", s: 5 });
});

Deno.test("coerceArgs() uses additionalProperties for undeclared keys", () => {
  const schema = object({}, { additionalProperties: { type: "integer" } });
  assert.deepEqual(coerceArgs(args("a=1&b=x"), { schema }), { a: 1, b: "x" });
});

Deno.test("coerceArgs() keeps a __proto__ key as an own property", () => {
  const value = coerceArgs(args("__proto__=x"), { schema: object({}) });
  assert.deepEqual(Object.keys(value), ["__proto__"]);
  assert.equal(Object.getPrototypeOf(value), Object.prototype);
});

const SEARCH = object({
  query: { type: "string" },
  limit: { type: "integer", minimum: 1 },
  exact: { type: "boolean" },
  mode: { enum: ["fast", "slow"] },
  filters: { type: "object", properties: { year: { type: "integer" } } },
}, { required: ["query"], additionalProperties: false });
const SEARCH_NAMES = "query, limit, exact, mode, filters";

Deno.test("prepareArguments() returns typed arguments that satisfy the schema", () => {
  const value = prepareArguments(args('query=deno&limit=5&exact=true&filters={"year":2024}'), {
    tool: "search",
    schema: SEARCH,
    engine,
  });
  assert.deepEqual(value, { query: "deno", limit: 5, exact: true, filters: { year: 2024 } });
});

Deno.test("prepareArguments() lists every violation with the argument's name", async (t) => {
  const cases: [string, string, Record<string, unknown> | undefined, ArgumentViolation[]][] = [
    ["a missing required argument", "limit=2", undefined, [
      { path: "query", message: "is required" },
    ]],
    ["a value of the wrong type", "query=x&limit=1.5", undefined, [
      { path: "limit", message: "must be integer", value: "1.5" },
    ]],
    ["an argument the schema does not declare", "query=x&colour=red", undefined, [
      { path: "colour", message: `is unknown: its arguments are ${SEARCH_NAMES}`, unknown: true },
    ]],
    ["a mistyped argument", "query=x&limt=2", undefined, [
      { path: "limt", message: 'is unknown: did you mean "limit"?', unknown: true },
    ]],
    ["a value outside an enum", "query=x&mode=medium", undefined, [
      { path: "mode", message: "must be one of: fast, slow", value: "medium" },
    ]],
    ["a nested value given as JSON", 'query=x&filters={"year":"new"}', undefined, [
      { path: "filters/year", message: "must be integer", value: "new" },
    ]],
    ["a typed --args value", "", { query: 3 }, [
      { path: "query", message: "must be string", value: 3 },
    ]],
    ["a keyword with ajv's own message", "query=x&limit=0", undefined, [
      { path: "limit", message: "must be >= 1", value: 0 },
    ]],
    ["several at once, in schema order", "limit=x&exact=yes&extra=1", undefined, [
      { path: "extra", message: `is unknown: its arguments are ${SEARCH_NAMES}`, unknown: true },
      { path: "query", message: "is required" },
      { path: "limit", message: "must be integer", value: "x" },
      { path: "exact", message: "must be boolean", value: "yes" },
    ]],
    ["a key repeated for a one-value property", "query=a&query=b", undefined, [
      { path: "query", message: "is given 2 times but takes one value", value: ["a", "b"] },
    ]],
  ];
  for (const [what, text, json, expected] of cases) {
    await t.step(what, () => {
      const violations = violationsOf(() =>
        prepareArguments(args(text, json), { tool: "search", schema: SEARCH, engine })
      );
      assert.deepEqual(violations, expected);
    });
  }
});

Deno.test("prepareArguments() and undeclared arguments", async (t) => {
  const prepare = (text: string, schema: JsonSchema, allowUnknown?: boolean) =>
    prepareArguments(args(text), { tool: "t", schema, engine, allowUnknown });
  await t.step("a schema with properties and no additionalProperties is closed", () => {
    const error = thrown(() =>
      prepare("text=a&repet=2", object({ text: {}, repeat: { type: "integer" } }))
    );
    assert.equal(error.message, 'Unknown argument "repet" for tool "t": did you mean "repeat"?');
    assert.match(error.hint ?? "", /--allow-unknown sends/);
  });
  await t.step(
    "allowUnknown sends it, converted as text, even past additionalProperties: false",
    () => {
      assert.deepEqual(prepare("text=a&repet=2", SEARCH_OPEN, true), { text: "a", repet: "2" });
      assert.deepEqual(prepare("query=a&extra=1", SEARCH, true), { query: "a", extra: "1" });
    },
  );
  await t.step("additionalProperties true or a schema, or no properties at all: open", () => {
    const open = object({ text: {} }, { additionalProperties: true });
    assert.deepEqual(prepare("text=a&other=b", open), { text: "a", other: "b" });
    assert.deepEqual(prepare("other=b", { type: "object" }), { other: "b" });
    const typed = object({}, { additionalProperties: { type: "integer" } });
    assert.deepEqual(prepare("n=3", typed), { n: 3 });
  });
  await t.step("a reserved query key in a violation gets the --arg hint", () => {
    const schema = object({ list: { type: "string" } }, { required: ["list"] });
    const error = thrown(() => prepare("", schema));
    assert.match(error.hint ?? "", /"list" is a reserved query key .* --arg list=VALUE/);
  });
});

function thrown(fn: () => unknown): ArgumentError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ArgumentError) return error;
    throw error;
  }
  throw new Error("no ArgumentError thrown");
}

const SEARCH_OPEN = object({ text: {}, repeat: { type: "integer" } });

Deno.test("prepareArguments() explains unions in plain words", async (t) => {
  const cases: [string, unknown, string, string][] = [
    [
      "integer or null",
      { anyOf: [{ type: "integer" }, { type: "null" }] },
      "x",
      "must be integer or null",
    ],
    [
      "a type list",
      { type: ["integer", "boolean", "null"] },
      "x",
      "must be integer, boolean or null",
    ],
    [
      "a type or an enum",
      { anyOf: [{ type: "integer" }, { enum: ["auto"] }] },
      "x",
      "must be integer or one of: auto",
    ],
    [
      "branches through $ref",
      { anyOf: [{ $ref: "#/$defs/I" }, { type: "null" }] },
      "x",
      "must be integer or null",
    ],
    [
      "complex branches",
      {
        anyOf: [{ type: "integer", minimum: 5 }, { type: "string", maxLength: 1 }],
      },
      "xyz",
      "does not match any of the allowed forms",
    ],
    [
      "oneOf matching twice",
      { oneOf: [{ type: "string" }, { minLength: 1 }] },
      "x",
      "matches more than one of the allowed forms",
    ],
  ];
  for (const [what, property, text, message] of cases) {
    await t.step(what, () => {
      const schema = object({ p: property }, { $defs: { I: { type: "integer" } } });
      const violations = violationsOf(() =>
        prepareArguments(args(`p=${text}`), { tool: "t", schema, engine })
      );
      assert.deepEqual(violations.map((v) => `${v.path} ${v.message}`), [`p ${message}`]);
    });
  }
});

Deno.test("prepareArguments() reports dependentRequired on the missing argument", () => {
  const schema = object({ a: { type: "string" }, b: { type: "string" } }, {
    dependentRequired: { a: ["b"] },
  });
  const violations = violationsOf(() =>
    prepareArguments(args("a=1"), { tool: "t", schema, engine })
  );
  assert.deepEqual(violations, [{ path: "b", message: `is required when "a" is given` }]);
});

Deno.test("prepareArguments() throws an ArgumentError whose message lists everything", () => {
  assert.throws(
    () => prepareArguments(args("limit=x"), { tool: "search", schema: SEARCH, engine }),
    (error: unknown) => {
      assert.ok(error instanceof ArgumentError);
      assert.equal(error.tool, "search");
      assert.equal(
        error.message,
        `Invalid arguments for tool "search": query is required; limit must be integer (got "x")`,
      );
      return true;
    },
  );
});

Deno.test("prepareArguments() picks the validator by $schema", async (t) => {
  await t.step("no $schema is 2020-12 (prefixItems is enforced)", () => {
    const schema = object({ t: { type: "array", prefixItems: [{ type: "integer" }] } });
    const violations = violationsOf(() =>
      prepareArguments(args("", { t: ["x"] }), { tool: "t", schema, engine })
    );
    assert.deepEqual(violations, [{ path: "t/0", message: "must be integer", value: "x" }]);
  });
  await t.step("draft-07 (items array is a tuple)", () => {
    const schema = object({ t: { type: "array", items: [{ type: "integer" }] } }, {
      $schema: "http://json-schema.org/draft-07/schema#",
    });
    const violations = violationsOf(() =>
      prepareArguments(args("", { t: ["x"] }), { tool: "t", schema, engine })
    );
    assert.deepEqual(violations, [{ path: "t/0", message: "must be integer", value: "x" }]);
  });
  await t.step("draft-04 still validates types", () => {
    const schema = object({ n: { type: "integer" } }, {
      $schema: "http://json-schema.org/draft-04/schema#",
    });
    const violations = violationsOf(() =>
      prepareArguments(args("n=x"), { tool: "t", schema, engine })
    );
    assert.deepEqual(violations, [{ path: "n", message: "must be integer", value: "x" }]);
  });
  await t.step("2019-09", () => {
    const schema = object({ n: { type: "integer" } }, {
      $schema: "https://json-schema.org/draft/2019-09/schema",
    });
    const violations = violationsOf(() =>
      prepareArguments(args("n=x"), { tool: "t", schema, engine })
    );
    assert.deepEqual(violations, [{ path: "n", message: "must be integer", value: "x" }]);
  });
  await t.step("formats are not checked", () => {
    const schema = object({ e: { type: "string", format: "email" } });
    assert.deepEqual(prepareArguments(args("e=nope"), { tool: "t", schema, engine }), {
      e: "nope",
    });
  });
  await t.step("two schemas with the same $id do not clash", () => {
    const a = object({ n: { type: "integer" } }, { $id: "urn:same" });
    const b = object({ n: { type: "string" } }, { $id: "urn:same" });
    assert.deepEqual(prepareArguments(args("n=1"), { tool: "a", schema: a, engine }), { n: 1 });
    assert.deepEqual(prepareArguments(args("n=1"), { tool: "b", schema: b, engine }), { n: "1" });
  });
});

Deno.test("prepareArguments() does not enforce a schema ajv cannot compile", () => {
  const schema = object({ n: { $ref: "#/$defs/Missing" } });
  assert.deepEqual(prepareArguments(args("n=1"), { tool: "t", schema, engine }), { n: "1" });
});

Deno.test("prepareArguments() validates the same schema object again with the same result", () => {
  for (let i = 0; i < 3; i++) {
    const violations = violationsOf(() =>
      prepareArguments(args("limit=x"), { tool: "s", schema: SEARCH, engine })
    );
    assert.equal(violations.length, 2);
  }
});
