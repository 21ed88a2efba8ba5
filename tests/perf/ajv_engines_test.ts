/**
 * Argument validation uses the one ajv jn loads, the copy the MCP SDK
 * bundles (lib/session/ajv_engines.ts): the SDK gives the three dialects'
 * classes, the process's engine (lib/client/schema_engine.ts) judges each
 * schema by the dialect it declares, and a cold `jn cat` whose arguments ajv
 * must judge reports ajv's violation without loading the npm package.
 */

import assert from "node:assert/strict";
import { sdkAjvEngines } from "../../lib/session/ajv_engines.ts";
import { schemaEngine } from "../../lib/client/schema_engine.ts";
import { permissionFlags } from "../../lib/sandbox/permissions.ts";
import { baseEnv, FIXTURES, ROOT } from "../helpers.ts";

const OPTIONS = { allErrors: true, strict: false, validateFormats: false, validateSchema: false };

Deno.test("sdkAjvEngines() provides the three dialects of ajv", async (t) => {
  const engines = await sdkAjvEngines();
  assert.ok(engines, "the SDK's ajv could not be reached");

  await t.step("2020-12: prefixItems is enforced", () => {
    const ajv = new (engines.v2020())(OPTIONS);
    const validate = ajv.compile({ type: "array", prefixItems: [{ type: "integer" }] });
    assert.equal(validate([1]), true);
    assert.equal(validate(["x"]), false);
  });

  await t.step("2019-09: items as an array is a tuple, dependentRequired is enforced", () => {
    const ajv = new (engines.v2019())(OPTIONS);
    const validate = ajv.compile({
      type: "object",
      dependentRequired: { a: ["b"] },
    });
    assert.equal(validate({ a: 1, b: 2 }), true);
    assert.equal(validate({ a: 1 }), false);
  });

  await t.step("draft-07: items as an array is a tuple", () => {
    const ajv = new (engines.draft7())(OPTIONS);
    const validate = ajv.compile({ type: "array", items: [{ type: "string" }] });
    assert.equal(validate(["x", 1]), true);
    assert.equal(validate([1]), false);
  });

  await t.step("each dialect is its own class", () => {
    const classes = new Set([engines.draft7(), engines.v2019(), engines.v2020()]);
    assert.equal(classes.size, 3);
  });
});

Deno.test("the client's engine judges a schema by the dialect it declares", async () => {
  const engine = await schemaEngine();
  const tuple = { type: "object", properties: { t: { items: [{ type: "string" }] } } };
  // draft-07: `items` as an array is a tuple; 2020-12 (and no $schema) ignores that form.
  const draft7 = { ...tuple, $schema: "http://json-schema.org/draft-07/schema#" };
  assert.deepEqual(engine.findViolations({ t: [1] }, draft7), [
    { path: "t/0", message: "must be string", value: 1 },
  ]);
  const prefix = { type: "object", properties: { t: { prefixItems: [{ type: "string" }] } } };
  assert.deepEqual(engine.findViolations({ t: [1] }, prefix), [
    { path: "t/0", message: "must be string", value: 1 },
  ]);
  const v2019 = {
    $schema: "https://json-schema.org/draft/2019-09/schema",
    type: "object",
    dependentRequired: { a: ["b"] },
  };
  assert.deepEqual(engine.findViolations({ a: 1 }, v2019), [
    { path: "b", message: 'is required when "a" is given' },
  ]);
});

Deno.test("a cold jn cat judges arguments with the SDK's ajv, never the npm package", async () => {
  // `log` declares an enum: no shortcut (lib/args/trivially_valid.ts) can judge it, ajv must.
  const uri = `mcp+node://${FIXTURES}/servers/fixture.mjs?tool=log&level=loud&message=x`;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--log-level=debug", ...permissionFlags(), `${ROOT}/main.ts`, "cat", uri],
    env: baseEnv(),
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const log = new TextDecoder().decode(out.stderr);
  assert.equal(out.code, 2, log.slice(-2000));
  assert.equal(new TextDecoder().decode(out.stdout), "");
  assert.match(log, /jn: Invalid arguments for tool "log": level must be one of: debug, info/);
  assert.match(log, /ajvProvider/, "the SDK's bundled ajv should be loaded");
  assert.doesNotMatch(log, /registry\.npmjs\.org\/ajv\//);
});
