import assert from "node:assert/strict";
import { declaredArguments, unknownArguments } from "../../lib/args/declared.ts";

Deno.test("declaredArguments() reads which names a schema declares", async (t) => {
  await t.step("properties without additionalProperties: closed", () => {
    assert.deepEqual(declaredArguments({ type: "object", properties: { a: {}, b: {} } }), {
      kind: "closed",
      names: ["a", "b"],
      patterns: [],
    });
  });
  await t.step("additionalProperties false: closed; true or a schema: open", () => {
    const props = { type: "object", properties: { a: {} } };
    assert.equal(declaredArguments({ ...props, additionalProperties: false }).kind, "closed");
    assert.equal(declaredArguments({ ...props, additionalProperties: true }).kind, "open");
    assert.equal(declaredArguments({ ...props, additionalProperties: {} }).kind, "open");
    assert.equal(declaredArguments({ ...props, unevaluatedProperties: true }).kind, "open");
  });
  await t.step("no properties keyword at all: open", () => {
    assert.equal(declaredArguments({ type: "object" }).kind, "open");
    assert.equal(declaredArguments(undefined).kind, "open");
    assert.equal(declaredArguments({}).kind, "open");
  });
  await t.step("empty properties: closed, no names", () => {
    assert.deepEqual(declaredArguments({ type: "object", properties: {} }), {
      kind: "closed",
      names: [],
      patterns: [],
    });
  });
  await t.step("a $ref root and allOf/anyOf branches contribute their names", () => {
    const schema = {
      $ref: "#/$defs/Base",
      $defs: { Base: { properties: { a: {} } }, More: { properties: { c: {} } } },
      anyOf: [{ properties: { b: {} } }, { $ref: "#/$defs/More" }],
    };
    const declared = declaredArguments(schema);
    assert.equal(declared.kind, "closed");
    if (declared.kind === "closed") assert.deepEqual(declared.names.sort(), ["a", "b", "c"]);
  });
  await t.step("a branch that allows more opens the schema", () => {
    const schema = { properties: { a: {} }, allOf: [{ additionalProperties: true }] };
    assert.equal(declaredArguments(schema).kind, "open");
  });
  await t.step("names matching patternProperties are declared", () => {
    const schema = { properties: { a: {} }, patternProperties: { "^x_": {} } };
    assert.deepEqual(unknownArguments(["a", "x_1", "y"], schema).map((v) => v.path), ["y"]);
  });
});

Deno.test("unknownArguments() names the closest declared argument", () => {
  const schema = { type: "object", properties: { text: {}, repeat: {} } };
  assert.deepEqual(unknownArguments(["text", "repet", "zzz"], schema), [
    { path: "repet", message: 'is unknown: did you mean "repeat"?', unknown: true },
    { path: "zzz", message: "is unknown: its arguments are text, repeat", unknown: true },
  ]);
  assert.deepEqual(unknownArguments(["x"], { properties: {} }), [
    { path: "x", message: "is unknown: the tool takes no arguments", unknown: true },
  ]);
});
