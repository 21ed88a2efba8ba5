/**
 * Schema drift seen by `profile validate`, `profile diff` and every use of a
 * profile, for each way the fixture server's schema can change (SPEC §5).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { parseNdjson } from "../helpers.ts";
import { sandbox } from "../profile/sandbox.ts";
import { edit, fixtureProfile, schema } from "./setup.ts";

Deno.test("jn profile validate classifies each schema change (exit 3 only when breaking)", async (t) => {
  const box = await sandbox({ here: true });
  try {
    await fixtureProfile(box);
    const cases: [string, number, RegExp][] = [
      ["v1", 0, /^@fx: valid \(schema hash [0-9a-f]{32}\)\n$/],
      [
        "v2-rename",
        3,
        /Tool 'search': Required parameter 'gene' renamed to 'gene_symbol' \(breaking\)/,
      ],
      [
        "v2-optional",
        0,
        /Tool 'article_get' added \(non-breaking\)\n {2}- Tool 'search': New optional parameter 'include_abstracts' added \(non-breaking\)/,
      ],
      [
        "v2-type",
        3,
        /Tool 'search': Parameter 'limit' type changed from 'integer' to 'string' \(breaking\)/,
      ],
      ["v2-removed", 3, /Tool 'variant_search' removed \(breaking\)/],
    ];
    for (const [variant, code, expected] of cases) {
      await t.step(`${variant}: exit ${code}`, async () => {
        const result = await box.run(["profile", "validate", "@fx"], schema(variant));
        assert.deepEqual([result.code, result.stderr], [code, ""]);
        assert.match(result.stdout, expected);
        if (code === 3) {
          assert.match(
            result.stdout,
            /Profile hash: \w{32}\nCurrent hash: \w{32}\n\nFix: jn profile update @fx\n$/,
          );
        }
      });
    }
    await t.step("diff --format json: every change with tool, path, old and new", async () => {
      const result = await box.run(
        ["profile", "diff", "@fx", "--format", "json"],
        schema("v2-rename"),
      );
      assert.equal(result.code, 0, result.stderr);
      const report = JSON.parse(result.stdout);
      assert.equal(report.status, "changed");
      assert.deepEqual(report.changes, [{
        severity: "breaking",
        kind: "param_renamed",
        tool: "search",
        path: "gene",
        old: "gene",
        new: "gene_symbol",
        message: "Tool 'search': Required parameter 'gene' renamed to 'gene_symbol'",
      }]);
    });
    await t.step("a profile without schema_hash is unknown, with a hint", async () => {
      await edit(
        join(box.user, "fx", "_meta.json"),
        (text) => text.replace(/\s*"schema_hash": "\w+",/, ""),
      );
      const result = await box.run(["profile", "validate", "@fx"]);
      assert.deepEqual([result.code, result.stderr], [0, ""]);
      assert.match(
        result.stdout,
        /^@fx: unknown — the profile has no schema_hash\n\nhint: record the current schema: jn profile update @fx\n$/,
      );
    });
    await t.step("a server that cannot be reached is exit 4, not a change", async () => {
      await box.write(
        `${box.user}/down/_meta.json`,
        JSON.stringify({
          command: "node",
          args: ["-e", "process.exit(1)"],
          schema_hash: "0".repeat(32),
        }),
      );
      const result = await box.run(["profile", "validate", "@down"]);
      assert.deepEqual([result.code, result.stdout], [4, ""]);
      assert.match(result.stderr, /^jn: The server "@down" exited with code 1/);
    });
  } finally {
    await box.dispose();
  }
});

Deno.test("using a drifted profile: warn, error, ignore, --ignore-schema, --quiet", async (t) => {
  const box = await sandbox({ here: true });
  try {
    const dir = await fixtureProfile(box);
    const call = (args: string[] = [], variant = "v2-type") =>
      box.run(["cat", "@fx/echo?text=hi", ...args], schema(variant));
    await t.step("warn (default): the changes and the fix on stderr, then the call", async () => {
      const result = await call();
      assert.equal(result.code, 0, result.stderr);
      assert.equal(parseNdjson(result.stdout).length, 1);
      assert.match(
        result.stderr,
        /^jn: warning: the MCP server schema of @fx has changed since the profile was written\n\nChanges detected:\n {2}- Tool 'search': Parameter 'limit' type changed from 'integer' to 'string' \(breaking\)\n\nProfile hash: \w{32}\nCurrent hash: \w{32}\n\nOptions:\n {2}1\. Update the profile: jn profile update @fx\n/,
      );
    });
    await t.step("inspect and head check too", async () => {
      for (const args of [["inspect", "@fx"], ["head", "-n", "1", "@fx?list=tools"]]) {
        const result = await box.run(args, schema("v2-removed"));
        assert.equal(result.code, 0, result.stderr);
        assert.match(result.stderr, /Tool 'variant_search' removed \(breaking\)/);
      }
    });
    await t.step("--ignore-schema and --quiet say nothing", async () => {
      for (const args of [["--ignore-schema"], ["--quiet"]]) {
        const result = args[0] === "--quiet"
          ? await box.run(["--quiet", "cat", "@fx/echo?text=hi"], schema("v2-type"))
          : await call(args);
        assert.deepEqual([result.code, result.stderr], [0, ""]);
      }
    });
    await edit(
      join(dir, "_meta.json"),
      (text) => text.replace(`"schema_validation": "warn"`, `"schema_validation": "error"`),
    );
    await t.step("error: breaking changes stop the run with exit 3 before any call", async () => {
      const result = await call();
      assert.deepEqual([result.code, result.stdout], [3, ""]);
      assert.match(
        result.stderr,
        /^Changes detected:\n {2}- Tool 'search': Parameter 'limit' type changed/,
      );
      assert.match(
        result.stderr,
        /\njn: Breaking schema drift in @fx: 1 breaking change \(schema_validation is "error"\)\nhint: update the profile: jn profile update @fx/,
      );
    });
    await t.step("error: non-breaking changes are reported and the run goes on", async () => {
      const result = await call([], "v2-optional");
      assert.equal(result.code, 0, result.stderr);
      assert.match(
        result.stderr,
        /jn: warning: .*\n[^]*New optional parameter 'include_abstracts' added \(non-breaking\)/,
      );
    });
    await edit(
      join(dir, "_meta.json"),
      (text) => text.replace(`"schema_validation": "error"`, `"schema_validation": "ignore"`),
    );
    await t.step("ignore: no check", async () => {
      const result = await call();
      assert.deepEqual([result.code, result.stderr], [0, ""]);
    });
  } finally {
    await box.dispose();
  }
});

Deno.test("a result in another media type than the tool's output_format is a behavioural warning", async () => {
  const box = await sandbox({ here: true });
  try {
    const dir = await fixtureProfile(box);
    await edit(
      join(dir, "search.json"),
      (text) => text.replace(`{`, `{\n  "output_format": "text/plain",`),
    );
    const result = await box.run(["cat", "@fx/search?gene=BRAF"]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(
      result.stderr,
      `jn: warning: Tool 'search': Output format changed from 'text/plain' to 'application/json' (behavioural)\n` +
        `hint: if that is how @fx/search answers now, change "output_format" in ${dir}/search.json\n`,
    );
  } finally {
    await box.dispose();
  }
});
