/**
 * Argument validation on the CLI path uses the ajv that the MCP SDK bundles
 * (the npm package is CommonJS and slow to load): the classes it provides
 * are the right dialects, and a cold `jn cat` never loads the npm package.
 */

import assert from "node:assert/strict";
import { sdkAjvEngines } from "../../lib/session/ajv_engines.ts";
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

Deno.test("a cold jn cat validates arguments without loading the npm ajv package", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--log-level=debug",
      ...permissionFlags(),
      `${ROOT}/main.ts`,
      "cat",
      `mcp+node://${FIXTURES}/servers/fixture.mjs?tool=echo&text=hi`,
    ],
    env: baseEnv(),
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const log = new TextDecoder().decode(out.stderr);
  assert.equal(out.code, 0, log.slice(-2000));
  assert.match(new TextDecoder().decode(out.stdout), /\\"text\\":\\"hi\\"/);
  assert.match(log, /ajvProvider/, "the SDK's bundled ajv should be loaded");
  assert.doesNotMatch(log, /registry\.npmjs\.org\/ajv\//);
});
