import assert from "node:assert/strict";
import { defaultContent, formFields, parseAnswer } from "../../lib/client/elicit_fields.ts";

const SCHEMA = {
  type: "object",
  properties: {
    email: { type: "string", format: "email" },
    count: { type: "integer", minimum: 1, maximum: 5, default: 2 },
    agree: { type: "boolean" },
    hero: {
      type: "string",
      oneOf: [{ const: "h1", title: "Superman" }, { const: "h2", title: "Batman" }],
    },
    pets: {
      type: "array",
      minItems: 1,
      items: { type: "string", enum: ["cat", "dog", "fish"] },
    },
  },
  required: ["email", "agree"],
};

Deno.test("formFields() reads kinds, requiredness, defaults and choices in schema order", () => {
  const fields = formFields(SCHEMA);
  assert.deepEqual(fields.map((f) => [f.name, f.kind, f.required]), [
    ["email", "string", true],
    ["count", "integer", false],
    ["agree", "boolean", true],
    ["hero", "choice", false],
    ["pets", "multi", false],
  ]);
  assert.deepEqual(fields[3].choices, [{ value: "h1", title: "Superman" }, {
    value: "h2",
    title: "Batman",
  }]);
});

Deno.test("parseAnswer() validates each answer against its field's schema", async (t) => {
  const [email, count, agree, hero, pets] = formFields(SCHEMA);
  await t.step("strings check their format", () => {
    assert.deepEqual(parseAnswer(email, "ada@example.org"), { ok: true, value: "ada@example.org" });
    assert.deepEqual(parseAnswer(email, "ada"), { ok: false, message: "not an email address" });
  });
  await t.step("an empty answer takes the default, or is refused when required", () => {
    assert.deepEqual(parseAnswer(count, ""), { ok: true, value: 2 });
    assert.deepEqual(parseAnswer(email, ""), { ok: false, message: "an answer is required" });
    assert.deepEqual(parseAnswer(hero, ""), { ok: true, value: undefined });
  });
  await t.step("integers check whole numbers and bounds", () => {
    assert.deepEqual(parseAnswer(count, "4"), { ok: true, value: 4 });
    assert.equal(parseAnswer(count, "2.5").ok, false);
    assert.deepEqual(parseAnswer(count, "9"), { ok: false, message: "must be at most 5" });
  });
  await t.step("booleans take y/n words", () => {
    assert.deepEqual(parseAnswer(agree, "Yes"), { ok: true, value: true });
    assert.deepEqual(parseAnswer(agree, "0"), { ok: true, value: false });
    assert.equal(parseAnswer(agree, "maybe").ok, false);
  });
  await t.step("choices take a number, a value or a title", () => {
    assert.deepEqual(parseAnswer(hero, "2"), { ok: true, value: "h2" });
    assert.deepEqual(parseAnswer(hero, "superman"), { ok: true, value: "h1" });
    assert.equal(parseAnswer(hero, "Hulk").ok, false);
  });
  await t.step("multi-selects take a comma-separated list, deduplicated", () => {
    assert.deepEqual(parseAnswer(pets, "cat, 2, cat"), { ok: true, value: ["cat", "dog"] });
    assert.equal(parseAnswer(pets, "cat, cow").ok, false);
  });
});

Deno.test("defaultContent() fills defaults, or names the required fields that have none", () => {
  assert.deepEqual(defaultContent(formFields(SCHEMA)), { missing: ["email", "agree"] });
  const optional = formFields({ type: "object", properties: SCHEMA.properties });
  assert.deepEqual(defaultContent(optional), { content: { count: 2 } });
});
