/**
 * `inspect()` and `inspectSections()` of the library (mod.ts): a failed list
 * is empty and named in `errors`, the error itself is given to a caller that
 * wants it, and tool schemas are the server's own objects (a property named
 * `__proto__` is an own key). Against tests/fixtures/servers/sections.mjs.
 */

import assert from "node:assert/strict";
import { inspect, inspectSections, open, ProtocolError } from "../../mod.ts";
import { baseEnv, FIXTURES } from "../helpers.ts";

const SERVER = `mcp+node://${FIXTURES}/servers/sections.mjs`;
const options = () => ({ cwd: FIXTURES, env: baseEnv(), events: { onNotice: () => {} } });

Deno.test("the library's inspect shows what it can", async (t) => {
  await t.step("inspect(): failed lists in errors, the rest listed", async () => {
    await using conn = await open(`${SERVER}?command=--templates-error`, options());
    const inventory = await inspect(conn);
    assert.deepEqual(Object.keys(inventory.errors ?? {}), ["resource_templates"]);
    assert.equal(inventory.resources.length, 1);
    const raw = inventory.tools.find((tool) => tool.name === "raw")!;
    const properties = raw.inputSchema.properties as Record<string, unknown>;
    assert.ok(Object.hasOwn(properties, "__proto__"));
    assert.equal(Object.getPrototypeOf(properties), Object.prototype);
  });

  await t.step("inspectSections(): the tools' failure as a ProtocolError", async () => {
    await using conn = await open(`${SERVER}?command=--tools-error`, options());
    const { inventory, failures } = await inspectSections(conn);
    assert.ok(failures.tools instanceof ProtocolError);
    assert.equal(failures.tools.code, -32603);
    assert.deepEqual(inventory.tools, []);
    assert.equal(inventory.prompts[0].name, "greet");
  });
});
