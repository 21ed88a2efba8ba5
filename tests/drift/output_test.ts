/**
 * Drift of a tool's `outputSchema` (snapshotted with its `inputSchema`):
 * a removed or renamed output field is breaking, an added one is not; and a
 * schema that changed only in layout (a reordered type list, a `$ref`
 * refactor) is "no change for callers", not a warning with no changes.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { sandbox } from "../profile/sandbox.ts";
import { fixtureProfile, schema } from "./setup.ts";

Deno.test("outputSchema drift is detected, classified and updated", async (t) => {
  const box = await sandbox({ here: true });
  try {
    const dir = await fixtureProfile(box, "v1-output");
    const file = join(dir, "variant_search.json");
    const snapshot = JSON.parse(await Deno.readTextFile(file));
    assert.deepEqual(snapshot.outputSchema.required, ["hits", "total"]);

    await t.step("the snapshot matches the server it was made from", async () => {
      const result = await box.run(["profile", "validate", "@fx"]);
      assert.deepEqual([result.code, result.stderr], [0, ""]);
      assert.match(result.stdout, /^@fx: valid \(schema hash \w{32}\)\n$/);
    });

    await t.step("a renamed output field is breaking (exit 3), the hash unchanged", async () => {
      const result = await box.run(
        ["profile", "validate", "@fx", "--format", "json"],
        schema("v2-output-renamed"),
      );
      assert.equal(result.code, 3, result.stderr);
      const report = JSON.parse(result.stdout);
      assert.equal(report.profile_hash, report.current_hash);
      assert.equal(report.status, "changed");
      assert.deepEqual(
        report.changes.map((c: Record<string, unknown>) => [c.severity, c.kind, c.path, c.message]),
        [[
          "breaking",
          "output_field_renamed",
          "hits[].title",
          "Tool 'variant_search': Output field 'hits[].title' renamed to 'hits[].name'",
        ]],
      );
    });

    await t.step("a changed output type is breaking; use warns before the call", async () => {
      const result = await box.run(
        ["cat", "--json", "@fx/trial_search?condition=x&limit=1"],
        schema("v2-output-type"),
      );
      assert.equal(result.code, 0, result.stderr);
      assert.ok(
        result.stderr.includes(
          "  - Tool 'variant_search': Output field 'total' type changed from 'integer' to 'string' (breaking)\n",
        ),
        result.stderr,
      );
    });

    await t.step("an added output field is non-breaking: valid, listed", async () => {
      const result = await box.run(["profile", "validate", "@fx"], schema("v2-output-added"));
      assert.deepEqual([result.code, result.stderr], [0, ""]);
      assert.match(
        result.stdout,
        /^@fx: valid \(schema hash \w{32}\); 1 non-breaking change\n\nChanges detected:\n {2}- Tool 'variant_search': New output field 'source' added \(non-breaking\)\n/,
      );
    });

    await t.step("profile update rewrites the outputSchema snapshot", async () => {
      const result = await box.run(
        ["profile", "update", "@fx", "--yes"],
        schema("v2-output-renamed"),
      );
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, /- rewrite the outputSchema snapshot in variant_search\.json\n/);
      const after = JSON.parse(await Deno.readTextFile(file));
      assert.deepEqual(after.outputSchema.properties.hits.items.required, ["id", "name"]);
      const again = await box.run(["profile", "validate", "@fx"], schema("v2-output-renamed"));
      assert.deepEqual([again.code, again.stderr], [0, ""]);
      assert.match(again.stdout, /^@fx: valid \(schema hash \w{32}\)\n$/);
    });
  } finally {
    await box.dispose();
  }
});

Deno.test("a reordered type list and a $ref refactor are no change for callers", async (t) => {
  const box = await sandbox({ here: true });
  try {
    await fixtureProfile(box, "v1-output");
    const env = schema("v2-output-reordered");

    await t.step("validate: no change for callers, exit 0, the hashes shown", async () => {
      const result = await box.run(["profile", "validate", "@fx"], env);
      assert.deepEqual([result.code, result.stderr], [0, ""]);
      assert.match(
        result.stdout,
        /^@fx: no change for callers — the schema hash differs, the schemas mean the same\n\nProfile hash: (\w{32})\nCurrent hash: (?!\1)\w{32}\n\nhint: record the new hash: jn profile update @fx\n$/,
      );
      assert.ok(!result.stdout.includes("Changes detected"));
    });

    await t.step("use: one note instead of the drift warning", async () => {
      const result = await box.run(["cat", "--json", "@fx/trial_search?condition=x&limit=1"], env);
      assert.equal(result.code, 0, result.stderr);
      assert.equal(
        result.stderr,
        "jn: @fx: no change for callers: the server's schema hash changed, but its schemas mean " +
          "the same (a reordered type list or a $ref refactor)\n" +
          "hint: record the new hash: jn profile update @fx\n",
      );
      const quiet = await box.run(
        ["cat", "--quiet", "--json", "@fx/trial_search?condition=x&limit=1"],
        env,
      );
      assert.deepEqual([quiet.code, quiet.stderr], [0, ""]);
    });

    await t.step("profile update records the new hash; then it is valid", async () => {
      const result = await box.run(["profile", "update", "@fx", "--yes"], env);
      assert.equal(result.code, 0, result.stderr);
      assert.ok(!result.stdout.includes("hint:"), result.stdout);
      const again = await box.run(["profile", "validate", "@fx"], env);
      assert.match(again.stdout, /^@fx: valid \(schema hash \w{32}\)\n$/);
    });
  } finally {
    await box.dispose();
  }
});
