/**
 * A tool description the user edited is theirs: the snapshot records the
 * MD5 of the server's description (`server_description_md5`), so drift is
 * told from an edit, and `profile update` keeps the edit (saying so on
 * stderr) while it still replaces descriptions nobody touched.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { sandbox } from "../profile/sandbox.ts";
import { edit, fixtureProfile, schema } from "./setup.ts";

const md5 = (text: string) => createHash("md5").update(text, "utf8").digest("hex");
const SEARCH = "Search articles by gene, optionally narrowed to a disease.";
const VARIANTS = "Search genetic variants of a gene.";

Deno.test("profile update keeps a description the user edited, and says so", async (t) => {
  const box = await sandbox({ here: true });
  try {
    const dir = await fixtureProfile(box);
    const read = async (name: string) =>
      JSON.parse(await Deno.readTextFile(join(dir, `${name}.json`)));

    await t.step("the snapshot records the MD5 of the server's description", async () => {
      const search = await read("search");
      assert.equal(search.description, SEARCH);
      assert.equal(search.server_description_md5, md5(SEARCH));
    });

    await edit(join(dir, "search.json"), (text) => text.replace(SEARCH, "My own words."));
    // A profile from an older jn: no MD5, and a text that is not the server's.
    await edit(
      join(dir, "variant_search.json"),
      (text) =>
        text.replace(VARIANTS, "Variants, my way.")
          .replace(/\n\s*"server_description_md5": "\w+",?/, ""),
    );

    await t.step("an edited description is not drift", async () => {
      const result = await box.run(["profile", "validate", "@fx"]);
      assert.deepEqual([result.code, result.stderr], [0, ""]);
      // The legacy file (no MD5) compares its text: that is all jn knows.
      assert.match(
        result.stdout,
        /^@fx: valid \(schema hash \w{32}\); 1 non-breaking change\n\nChanges detected:\n {2}- Tool 'variant_search': Description changed \(non-breaking\)\n/,
      );
    });

    await t.step("the server's change is seen through the MD5", async () => {
      const result = await box.run(["profile", "diff", "@fx"], schema("v2-description"));
      assert.equal(result.code, 0, result.stderr);
      // The texts a model would read, in full: the server's new one, and the old where recorded.
      assert.ok(
        result.stdout.includes(
          "Changes detected:\n" +
            "  - Tool 'search': Description changed (the profile keeps its own) (non-breaking)\n" +
            `      now: ${SEARCH} (updated)\n` +
            "  - Tool 'trial_search': Description changed (non-breaking)\n" +
            "      was: Search clinical trials for a condition.\n" +
            "      now: Search clinical trials for a condition. (updated)\n",
        ),
        result.stdout,
      );
    });

    await t.step("update: the user's descriptions kept (stderr), the others replaced", async () => {
      const result = await box.run(["profile", "update", "@fx", "--yes"], schema("v2-description"));
      assert.equal(result.code, 0, result.stderr);
      assert.equal(
        result.stderr,
        `jn: kept your description in search.json; the server's changed: "${SEARCH} (updated)"\n` +
          `jn: kept your description in variant_search.json; the server's differs: "${VARIANTS} (updated)"\n`,
      );
      assert.match(result.stdout, /- update the description in trial_search\.json\n/);
      assert.ok(!result.stdout.includes("update the description in search.json"), result.stdout);
      // The user's text stays; the digest of the server's new one is recorded (what pinning reads).
      assert.match(
        result.stdout,
        /- record the digest of the server's description in search\.json\n/,
      );
      const search = await read("search");
      assert.equal(search.description, "My own words.");
      assert.equal(search.server_description_md5, md5(`${SEARCH} (updated)`));
      const variants = await read("variant_search");
      assert.equal(variants.description, "Variants, my way.");
      assert.equal(variants.server_description_md5, md5(`${VARIANTS} (updated)`));
      const trial = await read("trial_search");
      assert.equal(trial.description, "Search clinical trials for a condition. (updated)");
      assert.equal(trial.server_description_md5, md5(trial.description));
    });

    await t.step("afterwards: valid, nothing to report, nothing to update", async () => {
      const env = schema("v2-description");
      const result = await box.run(["profile", "validate", "@fx"], env);
      assert.match(result.stdout, /^@fx: valid \(schema hash \w{32}\)\n$/);
      const again = await box.run(["profile", "update", "@fx"], env);
      assert.match(again.stdout, /^@fx is up to date/);
      assert.equal(again.stderr, "");
    });
  } finally {
    await box.dispose();
  }
});
