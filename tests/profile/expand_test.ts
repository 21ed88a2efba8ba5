/**
 * `${VAR}` substitution (SPEC §4): every rule, the secrets it collects, and
 * the errors that name the variable and the file.
 */
import assert from "node:assert/strict";
import { ConfigError } from "../../lib/errors.ts";
import { escapeVariables, expandValue } from "../../lib/profile/expand.ts";
import { parseJsonc } from "../../lib/profile/load.ts";

const where = () => "/p/_meta.json";
const expand = (value: unknown, env: Record<string, string> = {}) =>
  expandValue(value, { env, where });

Deno.test("expandValue() substitutes variables in every string, recursively", async (t) => {
  await t.step("${VAR} takes the variable's value, anywhere in a string", () => {
    const out = expand({ a: "x-${A}-y", list: ["${A}", { deep: "${B}" }] }, { A: "1", B: "two" });
    assert.deepEqual(out.value, { a: "x-1-y", list: ["1", { deep: "two" }] });
  });
  await t.step("a variable set to the empty string is set", () => {
    assert.equal(expand("[${E}]", { E: "" }).value, "[]");
  });
  await t.step("${VAR:-default} uses the default when unset or empty, the value otherwise", () => {
    assert.equal(expand("${U:-dflt}").value, "dflt");
    assert.equal(expand("${E:-dflt}", { E: "" }).value, "dflt");
    assert.equal(expand("${S:-dflt}", { S: "set" }).value, "set");
    assert.equal(expand("${U:-}").value, "");
  });
  await t.step("a default may contain references itself", () => {
    assert.equal(expand("${U:-${B:-none}/x}", { B: "b" }).value, "b/x");
    assert.equal(expand("${U:-${V:-none}}").value, "none");
  });
  await t.step("$${ is a literal ${ and a lone $ stays", () => {
    assert.equal(expand("$${HOME} costs $5, $HOME stays").value, "${HOME} costs $5, $HOME stays");
    assert.equal(expand("$$${A}", { A: "1" }).value, "$${A}");
  });
  await t.step("object keys, numbers, booleans and null are left alone", () => {
    const out = expand({ "${K}": 1, b: true, n: null }, { K: "k" });
    assert.deepEqual(out.value, { "${K}": 1, b: true, n: null });
  });
  await t.step("escapeVariables() text comes back unchanged", () => {
    const text = "a ${B} $${C} $$ ${";
    assert.equal(expand(escapeVariables(text)).value, text);
  });
});

Deno.test("expandValue() collects the substituted values as secrets, shown as ***", () => {
  const out = expand(
    { env: { TOKEN: "${TOKEN}" }, header: "Bearer ${TOKEN}", d: "${U:-plain}", e: "${E}" },
    { TOKEN: "s3cr3t-value", E: "" },
  );
  assert.deepEqual(out.secrets, ["s3cr3t-value"]);
  assert.deepEqual(out.display, {
    env: { TOKEN: "***" },
    header: "Bearer ***",
    d: "plain",
    e: "",
  });
});

Deno.test("expandValue() rejects what it cannot substitute", async (t) => {
  const doc = parseJsonc('{\n  "env": {\n    "TOKEN": "${GITHUB_TOKEN}"\n  }\n}', "/p/_meta.json");
  await t.step(
    "an unset variable without default names the variable, the file, line and column",
    () => {
      assert.throws(
        () => expandValue(doc.value, { env: {}, where: doc.where }),
        (error: unknown) =>
          error instanceof ConfigError &&
          error.message === `Variable "GITHUB_TOKEN" is not set (used in /p/_meta.json:3:14)` &&
          error.hint!.includes("${GITHUB_TOKEN:-value}"),
      );
    },
  );
  for (
    const [text, what] of [
      ["${}", "invalid variable reference"],
      ["${1A}", "invalid variable reference"],
      ["${A-b}", "invalid variable reference"],
      ["${A", "unterminated"],
    ]
  ) {
    await t.step(`${JSON.stringify(text)} is a ConfigError (${what})`, () => {
      assert.throws(
        () => expand(text, { A: "x" }),
        (error: unknown) => error instanceof ConfigError && error.message.includes(what),
      );
    });
  }
});
