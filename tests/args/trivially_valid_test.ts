/**
 * isTriviallyValid() may only say "valid" when ajv says so too; it says so
 * for the flat primitive schemas most tools declare, and defers to ajv
 * (answers false) for everything else.
 */

import assert from "node:assert/strict";
import { Ajv2020 } from "ajv/dist/2020.js";
import { isTriviallyValid } from "../../lib/args/trivially_valid.ts";
import type { JsonSchema } from "../../lib/types.ts";

const ajv = new Ajv2020({
  allErrors: true,
  strict: false,
  validateFormats: false,
  validateSchema: false,
});

const FLAT: JsonSchema = {
  $schema: "http://json-schema.org/draft-07/schema#",
  type: "object",
  properties: {
    text: { type: "string", description: "what to echo" },
    n: { type: "integer" },
    ratio: { type: "number", default: 0.5 },
    flag: { type: "boolean" },
    maybe: { type: ["string", "null"] },
    when: { type: "string", format: "date-time" },
  },
  required: ["text"],
  additionalProperties: false,
};

const SCHEMAS: JsonSchema[] = [
  FLAT,
  { ...FLAT, additionalProperties: true },
  { type: "object", properties: { a: { type: "string", enum: ["x"] } } },
  { type: "object", properties: { a: { type: "string", minLength: 3 } } },
  { type: "object", properties: { a: { type: "array", items: { type: "string" } } } },
  { type: "object", properties: { a: { $ref: "#/$defs/s" } }, $defs: { s: { type: "string" } } },
  { type: "object", properties: { a: {} } },
  { type: "object", properties: { a: { type: [] } } },
  { type: "object", required: ["a"] },
  {
    type: "object",
    properties: { a: { type: "string" } },
    additionalProperties: { type: "number" },
  },
  {
    type: "object",
    properties: { a: { type: "string" } },
    patternProperties: { "^x": { type: "number" } },
  },
  { type: ["object"], properties: {} },
  { properties: { a: { type: "string" } } },
];

const VALUES: unknown[] = [
  { text: "hi" },
  { text: "hi", n: 3, ratio: 1, flag: true, maybe: null, when: "not a date" },
  { text: "hi", n: 3.5 },
  { text: 5 },
  {},
  { text: "hi", extra: 1 },
  { a: "abc" },
  { a: "ab" },
  { a: ["x"] },
  { a: 1 },
  { a: null },
  { x1: "s" },
  { text: undefined },
  [],
  "text",
  null,
];

Deno.test("isTriviallyValid() never says valid when ajv says invalid", () => {
  let shortcuts = 0;
  for (const schema of SCHEMAS) {
    const validate = ajv.compile(schema);
    for (const value of VALUES) {
      if (!isTriviallyValid(value, schema)) continue;
      shortcuts++;
      assert.equal(
        validate(value),
        true,
        `shortcut said valid, ajv said invalid: ${JSON.stringify(value)} against ${
          JSON.stringify(schema)
        }`,
      );
    }
  }
  assert.ok(shortcuts >= 4, `the shortcut was taken only ${shortcuts} times`);
});

Deno.test("isTriviallyValid() takes the shortcut for flat primitive schemas only", async (t) => {
  await t.step("flat schema, valid values: yes", () => {
    assert.equal(isTriviallyValid({ text: "hi" }, FLAT), true);
    assert.equal(isTriviallyValid({ text: "hi", n: 3, maybe: null, when: "x" }, FLAT), true);
  });
  await t.step("a violation or a keyword it does not check: no (ajv decides)", () => {
    assert.equal(isTriviallyValid({ text: "hi", n: 3.5 }, FLAT), false);
    assert.equal(isTriviallyValid({ n: 3 }, FLAT), false);
    assert.equal(isTriviallyValid({ text: "hi", extra: 1 }, FLAT), false);
    assert.equal(isTriviallyValid({ a: "abc" }, SCHEMAS[2]), false);
    assert.equal(isTriviallyValid({ a: "abc" }, SCHEMAS[5]), false);
  });
});
