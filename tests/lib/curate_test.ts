/**
 * curateTools(), the policy `jn serve` applies to a connection's tools, on
 * the real fixture server and a profile made from it the way users make one
 * (`jn profile create --from`): the snapshot is served — a tool whose
 * description, input schema (a parameter's description included) or output
 * schema changed is withheld with the fix, a tool the snapshot does not know
 * is hidden until `jn profile update` approves it, unchanged tools keep
 * working — and `schema_validation: "ignore"` turns that off
 * (curated_tools_test.ts: the profile's own tools).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { call, DriftError, liveTools } from "../../mod.ts";
import { edit, fixtureProfile, schema } from "../drift/setup.ts";
import { FIXTURE, sandbox } from "../profile/sandbox.ts";
import { curated, names } from "./curate_helpers.ts";

const FIX = "review: jn profile diff @fx; approve: jn profile update @fx";

Deno.test("curateTools(): the snapshot is served; a change withholds only the changed tools", async (t) => {
  const box = await sandbox({ here: true });
  try {
    await fixtureProfile(box);
    await t.step("unchanged: every tool offered as the server lists it", async () => {
      await curated(box, "v1", async (c, conn) => {
        assert.equal(c.pinning, "all");
        assert.deepEqual([c.withheld, c.notes], [[], []]);
        assert.deepEqual(names(c.offered), names(await liveTools(conn)));
        assert.deepEqual(c.check("search", { gene: "BRAF" }), {
          serverTool: "search",
          arguments: { gene: "BRAF" },
        });
      });
    });
    await t.step("a description changed: withheld, with the reason and the fix", async () => {
      await curated(box, "v2-description", async (c, conn) => {
        const reason = "its description changed since the profile's snapshot";
        assert.deepEqual(c.withheld, [
          { name: "search", reason, fix: FIX },
          { name: "trial_search", reason, fix: FIX },
          { name: "variant_search", reason, fix: FIX },
        ]);
        assert.ok(!names(c.offered).includes("search"));
        assert.doesNotMatch(JSON.stringify(c.offered), /\(updated\)/);
        const error = (() => {
          try {
            c.check("search", { gene: "BRAF" });
          } catch (e) {
            return e;
          }
        })();
        assert.ok(error instanceof DriftError, String(error));
        assert.equal(error.message, `Tool "search" of @fx is withheld: ${reason}`);
        assert.equal(error.hint, FIX);
        // Unchanged tools keep working, through the route check() gives.
        const echo = c.check("echo", { text: "still here" });
        const result = await call(conn, echo.serverTool, echo.arguments);
        assert.deepEqual(JSON.parse(String(result.content[0].text)), { text: "still here" });
      });
    });
    await t.step("a parameter's description changed: its input schema is pinned too", async () => {
      await curated(box, "v2-param-description", (c) => {
        assert.deepEqual(c.withheld, [
          {
            name: "search",
            reason: "its input schema changed since the profile's snapshot",
            fix: FIX,
          },
        ]);
        assert.doesNotMatch(JSON.stringify(c.offered), /id_rsa/);
        assert.ok(names(c.offered).includes("trial_search"));
      });
    });
    await t.step("a parameter's type changed", async () => {
      await curated(box, "v2-type", (c) => {
        assert.deepEqual(names(c.withheld), ["search"]);
        assert.match(c.withheld[0].reason, /^its input schema changed/);
      });
    });
    await t.step("a new tool is hidden until profile update approves it", async () => {
      await curated(box, "v2-added", (c) => {
        assert.deepEqual(c.withheld, [
          {
            name: "article_get",
            reason: "it is new: the profile's snapshot does not know it",
            fix: FIX,
          },
        ]);
        assert.throws(() => c.check("article_get", { pmid: "1" }), DriftError);
      });
      const update = await box.run(["profile", "update", "@fx", "--yes"], schema("v2-added"));
      assert.equal(update.code, 0, update.stderr);
      await curated(box, "v2-added", (c) => {
        assert.deepEqual(c.withheld, []);
        assert.ok(names(c.offered).includes("article_get"));
      });
    });
  } finally {
    await box.dispose();
  }
});

Deno.test("curateTools(): an output schema change withholds the tool", async () => {
  const box = await sandbox({ here: true });
  try {
    await fixtureProfile(box, "v1-output");
    await curated(box, "v2-output-added", (c) => {
      assert.deepEqual(c.withheld, [{
        name: "variant_search",
        reason: "its output schema changed since the profile's snapshot",
        fix: FIX,
      }]);
    });
    // A $ref refactor and reordered type lists mean the same: nothing withheld.
    await curated(box, "v2-output-reordered", (c) => assert.deepEqual(c.withheld, []));
  } finally {
    await box.dispose();
  }
});

Deno.test("profile update shows description changes first, records their digests, then they are served", async (t) => {
  const box = await sandbox({ here: true });
  try {
    const dir = await fixtureProfile(box);
    // A change in a tool that sorts first (echo), so that "first" is a choice, not the order.
    await edit(
      join(dir, "echo.json"),
      (text) => text.replace(`"additionalProperties": true`, `"additionalProperties": false`),
    );
    const env = schema("v2-description");
    await t.step("diff --format json: the description changes lead", async () => {
      const diff = await box.run(["profile", "diff", "@fx", "--format", "json"], env);
      const changes = JSON.parse(diff.stdout).changes as { kind: string; tool: string }[];
      assert.deepEqual(changes.map((c) => [c.kind, c.tool]), [
        ["description_changed", "search"],
        ["description_changed", "trial_search"],
        ["description_changed", "variant_search"],
        ["input_schema_changed", "echo"],
      ]);
    });
    await t.step("update: the texts first, then the plan; the digests written", async () => {
      const result = await box.run(["profile", "update", "@fx", "--yes"], env);
      assert.equal(result.code, 0, result.stderr);
      const changes = result.stdout.split("Changes detected:\n")[1];
      assert.ok(
        changes.startsWith(
          "  - Tool 'search': Description changed (non-breaking)\n" +
            "      was: Search articles by gene, optionally narrowed to a disease.\n" +
            "      now: Search articles by gene, optionally narrowed to a disease. (updated)\n",
        ),
        result.stdout,
      );
      assert.match(changes, /\n {2}- Tool 'echo': Input schema changed \(in a way no/);
      assert.match(result.stdout, /- update the description in search\.json\n/);
    });
    await t.step("the new texts are served", async () => {
      await curated(box, "v2-description", (c) => {
        assert.deepEqual(c.withheld, []);
        const search = c.offered.find((tool) => tool.name === "search");
        assert.equal(
          search?.description,
          "Search articles by gene, optionally narrowed to a disease. (updated)",
        );
      });
    });
  } finally {
    await box.dispose();
  }
});

Deno.test("curateTools(): pinning off, explicitly; nothing to pin for a URI", async (t) => {
  const box = await sandbox({ here: true });
  try {
    const dir = await fixtureProfile(box);
    await t.step("--ignore-schema (the caller's option)", async () => {
      await curated(box, "v2-description", (c) => {
        assert.deepEqual([c.pinning, c.withheld], ["off", []]);
        assert.deepEqual(c.notes, [
          "@fx: pinning is off (--ignore-schema): tools are served as the server lists them",
        ]);
      }, { ignoreSchema: true });
    });
    await edit(
      join(dir, "_meta.json"),
      (text) => text.replace(`"schema_validation": "warn"`, `"schema_validation": "ignore"`),
    );
    await t.step(`schema_validation: "ignore" in the profile`, async () => {
      await curated(box, "v2-added", (c) => {
        assert.deepEqual([c.pinning, c.withheld], ["off", []]);
        assert.ok(names(c.offered).includes("article_get"));
        assert.match(c.notes[0], /pinning is off \(schema_validation is "ignore"\)/);
      });
    });
    await t.step("a naked URI: served as is, one note saying how to pin", async () => {
      await curated(box, "v2-added", (c) => {
        assert.deepEqual([c.pinning, c.withheld], ["none", []]);
        assert.equal(c.notes.length, 1);
        assert.match(c.notes[0], /nothing is pinned \(a URI has no snapshot\).*jn profile create/);
      }, { source: `mcp+node://${FIXTURE}` });
    });
  } finally {
    await box.dispose();
  }
});
