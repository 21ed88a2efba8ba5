/**
 * curateTools() offers a profile's own tools as curated tools: an alias with
 * its defaults filled in and taken out of its schema (a host that gives one
 * is refused), the profile's description (its secrets redacted), the lists
 * of allow_tools/deny_tools holding; a snapshot older than description
 * digests serves the profile's text. The fixture server is real.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { call, UsageError } from "../../mod.ts";
import { edit, fixtureProfile, schema } from "../drift/setup.ts";
import { sandbox } from "../profile/sandbox.ts";
import { curated, names } from "./curate_helpers.ts";

Deno.test("curateTools(): an alias is offered with its defaults filled and out of its schema", async () => {
  const box = await sandbox({ here: true });
  try {
    const dir = await fixtureProfile(box);
    await box.write(
      join(dir, "braf.json"),
      JSON.stringify({
        tool: "search",
        description: "Articles about BRAF (${NOTE})",
        defaults: { gene: "BRAF", disease: "${DISEASE}" },
      }),
    );
    await edit(
      join(dir, "_meta.json"),
      (text) =>
        text.replace(`"schema_validation"`, `"deny_tools": ["trial_*"], "schema_validation"`),
    );
    const env = { NOTE: "note-s3cr3t-value", DISEASE: "melanoma" };
    await curated(box, "v1", async (c, conn) => {
      const braf = c.offered.find((tool) => tool.name === "braf");
      assert.ok(braf);
      // The profile's description (its substituted value is a secret: redacted), the server's
      // schema without the fixed arguments.
      assert.equal(braf.description, "Articles about BRAF (***)");
      assert.deepEqual(Object.keys(braf.inputSchema.properties ?? {}), ["limit"]);
      assert.deepEqual(braf.inputSchema.required, []);
      assert.equal(braf.title, undefined);
      assert.doesNotMatch(JSON.stringify(c), /s3cr3t/);
      assert.ok(names(c.offered).includes("search"), "the raw tool is offered beside it");
      // deny_tools: not offered, not withheld, not found.
      assert.ok(!names([...c.offered, ...c.withheld]).includes("trial_search"));
      assert.throws(() => c.check("trial_search", {}), UsageError);
      assert.throws(
        () => c.check("braf", { gene: "KRAS" }),
        (e: Error) =>
          e instanceof UsageError &&
          e.message === `Argument "gene" of tool "braf" is fixed by @fx: its profile gives it`,
      );
      const routed = c.check("braf", { limit: 1 });
      assert.deepEqual(routed, {
        serverTool: "search",
        arguments: { limit: 1, gene: "BRAF", disease: "melanoma" },
      });
      assert.deepEqual(c.route("braf"), {
        serverTool: "search",
        defaults: { gene: "BRAF", disease: "melanoma" },
      });
      const result = await call(conn, routed.serverTool, routed.arguments);
      const hits = JSON.parse(String(result.content[0].text));
      assert.deepEqual(hits.map((hit: { id: string }) => hit.id), ["search-BRAF-1"]);
    }, { env });
  } finally {
    await box.dispose();
  }
});

Deno.test("curateTools(): a snapshot older than description digests serves the profile's text", async () => {
  const box = await sandbox({ here: true });
  try {
    const dir = await fixtureProfile(box);
    await edit(
      join(dir, "trial_search.json"),
      (text) =>
        text.replace("Search clinical trials for a condition.", "Trials, my way.")
          .replace(/\n\s*"server_description_md5": "\w+",?/, ""),
    );
    await curated(box, "v2-description", (c) => {
      assert.deepEqual(names(c.withheld), ["search", "variant_search"]);
      const trials = c.offered.find((tool) => tool.name === "trial_search");
      assert.equal(trials?.description, "Trials, my way.");
      assert.deepEqual(c.notes, [
        "@fx: the server's description of trial_search is not pinned (its snapshot predates " +
        "description digests): the profile's own is served; jn profile update @fx records them",
      ]);
    });
  } finally {
    await box.dispose();
  }
});

Deno.test("curateTools(): a snapshot older than display digests serves the tool without them", async () => {
  const box = await sandbox({ here: true });
  try {
    const dir = await fixtureProfile(box);
    await edit(
      join(dir, "search.json"),
      (text) => text.replace(/,?\n\s*"server_display_md5": \{\}/, ""),
    );
    await curated(box, "v2-annotations", (c) => {
      assert.deepEqual(names(c.withheld), [], "jn cannot tell whether they changed");
      const search = c.offered.find((tool) => tool.name === "search");
      assert.ok(search, "offered");
      assert.equal(search.title, undefined, "a title no digest pins never reaches the host");
      assert.equal(search.annotations, undefined);
      assert.deepEqual(c.notes, [
        "@fx: the title, annotations and icons of search are not pinned (their snapshot predates " +
        "display digests): they are served without them; jn profile update @fx records them",
      ]);
    });
    // `profile diff` says so, and `profile update` records them: then they are served.
    const diff = await box.run(["profile", "diff", "@fx"], schema("v2-annotations"));
    assert.match(
      diff.stdout,
      /Annotations and title not recorded \(the snapshot predates display digests\)/,
    );
    const update = await box.run(["profile", "update", "@fx", "--yes"], schema("v2-annotations"));
    assert.equal(update.code, 0, update.stderr);
    assert.match(
      update.stdout,
      /record the digests of the server's title, annotations… in search\.json/,
    );
    await curated(box, "v2-annotations", (c) => {
      const search = c.offered.find((tool) => tool.name === "search");
      assert.equal(search?.title, "Search (read-only, safe)");
      assert.deepEqual(c.notes, []);
    });
    // And now a change of them is a change: back to v1, the tool is withheld.
    await curated(box, "v1", (c) => {
      assert.deepEqual(
        c.withheld.map((tool) => [tool.name, tool.reason]),
        [["search", "its annotations and title changed since the profile's snapshot"]],
      );
    });
  } finally {
    await box.dispose();
  }
});
