/**
 * Profile files are JSONC; a syntax or field error names the file, line and
 * column (a ConfigError, exit 3).
 */
import assert from "node:assert/strict";
import { ConfigError } from "../../lib/errors.ts";
import { checkMeta, checkToolFile } from "../../lib/profile/fields.ts";
import { parseJsonc } from "../../lib/profile/load.ts";

function throwsConfig(fn: () => unknown, message: string) {
  assert.throws(fn, (error: unknown) => {
    assert.ok(error instanceof ConfigError, String(error));
    assert.equal(error.message, message);
    return true;
  });
}

Deno.test("parseJsonc() reads comments and trailing commas", () => {
  const doc = parseJsonc(
    `// launch\n{\n  /* block */ "command": "uvx", // why\n  "args": ["a", "b",],\n}\n`,
    "/p/_meta.json",
  );
  assert.deepEqual(doc.value, { command: "uvx", args: ["a", "b"] });
  assert.equal(doc.where(["args", 1]), "/p/_meta.json:4:17");
});

Deno.test("parseJsonc() reports syntax errors with file:line:column", async (t) => {
  const cases: [string, string][] = [
    [`{\n  "a": 1\n  "b": 2\n}`, `Invalid JSON in /p/x.json:3:3: expected ","`],
    [`{\n  "a": 1,\n  b: 2\n}`, `Invalid JSON in /p/x.json:3:3: unexpected character`],
    [`{"a": "unterminated}`, `Invalid JSON in /p/x.json:1:7: unterminated string`],
    [`{"a": 1} extra`, `Invalid JSON in /p/x.json:1:10: unexpected character`],
    [``, `Invalid JSON in /p/x.json:1:1: the file is empty`],
    [`/* open`, `Invalid JSON in /p/x.json:1:1: unterminated comment`],
    [
      `{"a": 1}\n{"b": 2}`,
      `Invalid JSON in /p/x.json:2:1: unexpected text after the end of the document`,
    ],
    [`["a"]`, `Invalid profile file /p/x.json:1:1: expected a JSON object, got an array`],
  ];
  for (const [text, message] of cases) {
    await t.step(
      JSON.stringify(text),
      () => throwsConfig(() => parseJsonc(text, "/p/x.json"), message),
    );
  }
});

Deno.test("checkMeta() and checkToolFile() point at the field of the wrong type", async (t) => {
  const meta = (text: string) => () => checkMeta(parseJsonc(text, "/p/_meta.json"));
  await t.step("args must be strings", () =>
    throwsConfig(
      meta(`{\n  "command": "x",\n  "args": ["a", 2]\n}`),
      `Invalid profile /p/_meta.json:3:17: "args[1]" must be a string, got 2`,
    ));
  await t.step("env values must be strings", () =>
    throwsConfig(
      meta(`{"command": "x", "env": {"PORT": 8080}}`),
      `Invalid profile /p/_meta.json:1:34: "env.PORT" must be a string (quote it: "8080")`,
    ));
  await t.step("schema_validation is warn, error or ignore", () =>
    throwsConfig(
      meta(`{"command": "x", "schema_validation": "strict"}`),
      `Invalid profile /p/_meta.json:1:39: "schema_validation" must be one of warn, error, ignore, got "strict"`,
    ));
  await t.step("schema_hash is an MD5", () =>
    throwsConfig(
      meta(`{"command": "x", "schema_hash": "a3f5b8c2..."}`),
      `Invalid profile /p/_meta.json:1:33: "schema_hash" must be 32 lowercase hex digits (an MD5)`,
    ));
  await t.step(
    "the seed's launcher object belongs in create's input, not in _meta.json",
    () =>
      throwsConfig(
        meta(`{"launcher": {"command": "x"}}`),
        `Invalid profile /p/_meta.json:1:14: "launcher" is the seed's create format, not a _meta.json field`,
      ),
  );
  await t.step("inline tools are checked like tool files", () =>
    throwsConfig(
      meta(`{"command": "x", "tools": {"s": {"defaults": [1]}}}`),
      `Invalid profile /p/_meta.json:1:46: "tools.s.defaults" must be an object`,
    ));
  await t.step("a tool file's fields", () =>
    throwsConfig(
      () => checkToolFile(parseJsonc(`{"tool": ""}`, "/p/s.json")),
      `Invalid profile /p/s.json:1:10: "tool" is empty`,
    ));
  await t.step("unknown fields are kept", () => {
    const value = checkMeta(
      parseJsonc(`{"command": "x", "created": "2025-11-12"}`, "/p/_meta.json"),
    );
    assert.equal(value.created, "2025-11-12");
  });
});
