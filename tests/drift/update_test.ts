/**
 * `jn profile update` rewrites a drifted profile by editing its JSONC text:
 * comments survive, renamed parameters follow into defaults/examples/
 * tested_with, removed tools lose their files, new tools get one; the new
 * hash is the seed function's. And `jn mcp hash` agrees with the seed.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { parseNdjson } from "../helpers.ts";
import { seedHash } from "../profile/create_test.ts";
import { FIXTURE, type Sandbox, sandbox } from "../profile/sandbox.ts";
import { edit, fixtureProfile, schema } from "./setup.ts";

async function liveTools(box: Sandbox, variant: string) {
  const result = await box.run([
    "mcp",
    "explore",
    `mcp+node://${FIXTURE}?command=--schema&command=${variant}`,
  ]);
  assert.equal(result.code, 0, result.stderr);
  return JSON.parse(result.stdout).tools as { name: string; inputSchema: unknown }[];
}

Deno.test("jn profile update rewrites the profile to the live schema, keeping comments", async (t) => {
  const box = await sandbox({ here: true });
  try {
    const dir = await fixtureProfile(box);
    const search = join(dir, "search.json");
    await edit(search, (text) =>
      `// My notes on search: keep me.\n` + text.replace(
        `{\n`,
        `{\n  "defaults": { "gene": "BRAF", "limit": 2 }, // the usual query\n` +
          `  "examples": [{ "input": { "gene": "TP53" }, "output_sample": "…" }],\n` +
          `  "tested_with": ["gene=BRAF&disease=melanoma", { "gene": "EGFR" }],\n`,
      ));
    await edit(join(dir, "_meta.json"), (text) => `/* team profile */\n${text}`);

    await t.step(
      "without a terminal and without --yes it shows the plan and refuses (exit 2)",
      async () => {
        const before = await Deno.readTextFile(search);
        const result = await box.run(["profile", "update", "@fx"], schema("v2-rename"));
        assert.equal(result.code, 2);
        assert.match(
          result.stdout,
          /Update @fx \(.*\):\n {2}- rewrite the inputSchema snapshot in search\.json\n {2}- rewrite the parameters in search\.json\n {2}- rename "gene" to "gene_symbol" in the defaults\/examples of search\.json\n {2}- set schema_hash to \w{32}\n/,
        );
        assert.match(
          result.stderr,
          /^jn: Not updating @fx: confirmation needed and stdin is not a terminal\nhint: rerun with --yes/,
        );
        assert.equal(await Deno.readTextFile(search), before);
      },
    );

    await t.step("--yes: renamed everywhere, comments kept, the seed's hash recorded", async () => {
      const result = await box.run(["profile", "update", "@fx", "--yes"], schema("v2-rename"));
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, /\nUpdated @fx: new schema hash \w{32}\n$/);
      const text = await Deno.readTextFile(search);
      assert.ok(
        text.startsWith(
          `// My notes on search: keep me.\n{\n  "defaults": { "gene_symbol": "BRAF", "limit": 2 }, // the usual query\n`,
        ),
        text,
      );
      assert.ok(
        text.includes(
          `"examples": [{ "input": { "gene_symbol": "TP53" }, "output_sample": "…" }],`,
        ),
      );
      assert.ok(
        text.includes(
          `"tested_with": ["gene_symbol=BRAF&disease=melanoma", { "gene_symbol": "EGFR" }],`,
        ),
      );
      assert.match(text, /"parameters": \{\n {4}"gene_symbol": \{/);
      const metaText = await Deno.readTextFile(join(dir, "_meta.json"));
      assert.ok(metaText.startsWith("/* team profile */\n"));
      const hash = /"schema_hash": "(\w+)"/.exec(metaText)![1];
      assert.equal(hash, await seedHash(await liveTools(box, "v2-rename")));
      const validate = await box.run(["profile", "validate", "@fx"], schema("v2-rename"));
      assert.deepEqual([validate.code, validate.stderr], [0, ""]);
      const call = await box.run(["cat", "--json", "@fx/search"], schema("v2-rename"));
      assert.deepEqual([call.code, call.stderr], [0, ""]);
      assert.deepEqual((parseNdjson(call.stdout)[0] as { arguments: unknown }).arguments, {
        gene_symbol: "BRAF",
        limit: 2,
      });
    });

    await t.step("a removed tool loses its file", async () => {
      const result = await box.run(["profile", "update", "@fx", "--yes"], schema("v2-removed"));
      assert.equal(result.code, 0, result.stderr);
      assert.match(
        result.stdout,
        /remove variant_search\.json: the server no longer has "variant_search"/,
      );
      await assert.rejects(Deno.stat(join(dir, "variant_search.json")));
      assert.ok(
        (await Deno.readTextFile(search)).includes(
          `"defaults": { "gene": "BRAF", "limit": 2 }, // the usual query`,
        ),
      );
    });

    await t.step("a new tool gets a file (the profile records every tool)", async () => {
      const result = await box.run(["profile", "update", "@fx", "--yes"], schema("v2-optional"));
      assert.equal(result.code, 0, result.stderr);
      const added = JSON.parse(await Deno.readTextFile(join(dir, "article_get.json")));
      assert.deepEqual(added.inputSchema.required, ["pmid"]);
      await Deno.stat(join(dir, "variant_search.json"));
      const again = await box.run(["profile", "update", "@fx"], schema("v2-optional"));
      assert.deepEqual([again.code, again.stdout], [
        0,
        `@fx is up to date (schema hash ${
          /"schema_hash": "(\w+)"/.exec(await Deno.readTextFile(join(dir, "_meta.json")))![1]
        })\n`,
      ]);
    });
  } finally {
    await box.dispose();
  }
});

Deno.test("jn mcp hash agrees with the seed's calculate_schema_hash, per tool too", async () => {
  const box = await sandbox({ here: true });
  try {
    const uri = `mcp+node://${FIXTURE}?command=--schema&command=v2-type`;
    const result = await box.run(["mcp", "hash", uri, "--format", "json"]);
    assert.equal(result.code, 0, result.stderr);
    const out = JSON.parse(result.stdout);
    const tools = await liveTools(box, "v2-type");
    assert.equal(out.hash, await seedHash(tools));
    assert.deepEqual(Object.keys(out.tools).sort(), tools.map((tool) => tool.name).sort());
    const text = await box.run(["mcp", "hash", uri]);
    assert.equal(text.stdout, `${out.hash}\n`);
  } finally {
    await box.dispose();
  }
});

Deno.test("jn profile update refuses a project profile behind a symlinked .jn/profiles", async () => {
  const box = await sandbox();
  try {
    const uri = `mcp+node://${FIXTURE}?command=--schema&command=v1`;
    const created = await box.run(["profile", "create", "fx", "--project", "--from", uri]);
    assert.equal(created.code, 0, created.stderr);
    // The repository's .jn/profiles becomes a symlink to a directory elsewhere.
    const elsewhere = join(box.root, "elsewhere");
    await Deno.rename(join(box.project, ".jn", "profiles"), elsewhere);
    await Deno.symlink(elsewhere, join(box.project, ".jn", "profiles"));
    const meta = join(elsewhere, "mcp", "fx", "_meta.json");
    await edit(meta, (text) => text.replace(`"v1"`, `"\${FIXTURE_SCHEMA:-v1}"`));
    const trusted = await box.run(["profile", "trust", "fx"]);
    assert.equal(trusted.code, 0, trusted.stderr);
    const before = await Deno.readTextFile(meta);
    const result = await box.run(["profile", "update", "@fx", "--yes"], schema("v2-rename"));
    assert.equal(result.code, 3, result.stderr);
    assert.match(
      result.stderr,
      /^jn: Refusing to write the project profile through a symlink: .*\/\.jn\/profiles is a symlink\nhint: /,
    );
    assert.equal(await Deno.readTextFile(meta), before, "nothing was written");
  } finally {
    await box.dispose();
  }
});

Deno.test("jn profile update keeps the server's version current, also in an old description", async (t) => {
  const box = await sandbox({ here: true });
  try {
    const dir = await fixtureProfile(box);
    const meta = join(dir, "_meta.json");
    // A profile written by an older jn: the version was part of the description.
    await edit(meta, (text) =>
      text.replace(/"server_version": "1\.0\.0",\n\s*/, "")
        .replace('"jn-fixture: ', '"jn-fixture 0.9.0: ')
        .replace('"--schema"', '"--server-version=1.1.0", "--schema"'));
    const info = async () => {
      const result = await box.run(["profile", "info", "@fx", "--format", "json"]);
      assert.equal(result.code, 0, result.stderr);
      return JSON.parse(result.stdout) as { description: string; server_version?: string };
    };
    assert.match((await info()).description, /^jn-fixture 0\.9\.0: /);

    await t.step("a new version alone is something to update, said as such", async () => {
      const result = await box.run(["profile", "update", "@fx", "--yes"]);
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, /- drop the old version 0\.9\.0 from the description\n/);
      assert.match(result.stdout, /- record server_version 1\.1\.0\n/);
      const now = await info();
      assert.match(now.description, /^jn-fixture: Fixture server/);
      assert.equal(now.server_version, "1.1.0");
      const text = await box.run(["profile", "info", "@fx"]);
      assert.match(text.stdout, /\n {2}version: +1\.1\.0\n/);
    });

    await t.step(
      "the next release updates server_version; the same one is up to date",
      async () => {
        await edit(
          meta,
          (text) => text.replace("--server-version=1.1.0", "--server-version=2.0.0"),
        );
        const result = await box.run(["profile", "update", "@fx", "--yes"]);
        assert.equal(result.code, 0, result.stderr);
        assert.match(result.stdout, /- update server_version 1\.1\.0 → 2\.0\.0\n/);
        assert.equal((await info()).server_version, "2.0.0");
        const again = await box.run(["profile", "update", "@fx", "--yes"]);
        assert.match(again.stdout, /^@fx is up to date/);
      },
    );
  } finally {
    await box.dispose();
  }
});
