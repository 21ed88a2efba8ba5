/**
 * A malformed `required` (not an array of strings), in a profile's snapshot
 * or in a live schema, is read leniently and reported as a warning: the
 * check never crashes on it.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { driftReport } from "../../lib/drift/report.ts";
import { driftReportText } from "../../lib/drift/text.ts";
import { style } from "../../lib/output/style.ts";
import type { Profile } from "../../lib/profile/types.ts";
import { sandbox } from "../profile/sandbox.ts";
import { edit, fixtureProfile } from "./setup.ts";

Deno.test("a malformed required in a snapshot is a warning of profile validate", async () => {
  const box = await sandbox({ here: true });
  try {
    const dir = await fixtureProfile(box);
    await edit(
      join(dir, "search.json"),
      (text) => text.replace(/"required": \[\s*"gene"\s*\]/, `"required": ["gene", 7]`),
    );
    const result = await box.run(["profile", "validate", "@fx"]);
    assert.deepEqual([result.code, result.stderr], [0, ""]);
    // The snapshot no longer equals the server's schema (a 7 the server never sent): said too.
    assert.match(
      result.stdout,
      /^@fx: valid \(schema hash \w{32}\); 1 behavioural change\nwarning: Tool 'search': "required" of the profile's inputSchema is not an array of strings \(read as its strings only\)\n\nChanges detected:\n {2}- Tool 'search': Input schema changed \(in a way no classified change names\) \(behavioural\)\n/,
    );
    const json = await box.run(["profile", "validate", "@fx", "--format", "json"]);
    assert.equal(JSON.parse(json.stdout).warnings.length, 1);
  } finally {
    await box.dispose();
  }
});

Deno.test("driftReport() reads a live required that is a string or an object without crashing", () => {
  const profile = {
    name: "p",
    meta: { schema_hash: "0".repeat(32) },
    tools: [{
      name: "t",
      serverTool: "t",
      def: { inputSchema: { type: "object", properties: { gene: { type: "string" } } } },
    }],
  } as unknown as Profile;
  for (const required of ["gene", { gene: true }, null, 7]) {
    const live = [{
      name: "t",
      inputSchema: {
        type: "object",
        properties: { gene: { type: "string" }, nested: { type: "object", required } },
        required,
      },
    }];
    // deno-lint-ignore no-explicit-any
    const report = driftReport(profile, live as any);
    assert.deepEqual(report.warnings, [
      `Tool 't': "required" of the server's inputSchema is not an array of strings (read as its strings only)`,
      `Tool 't': "required" at 'nested' of the server's inputSchema is not an array of strings (read as its strings only)`,
    ]);
    assert.match(driftReportText(report, style(false), { verdict: true }), /\nwarning: Tool 't'/);
  }
});
