/**
 * The bundled profiles: embedded exactly as profiles/mcp/ has them, all
 * valid, and @demo working offline from any directory with a fresh HOME
 * (jn launches itself as the demo server).
 */
import assert from "node:assert/strict";
import { BUNDLED_PROFILES, BUNDLED_SUMMARIES } from "../../lib/profile/bundled_data.ts";
import { bundledLayer } from "../../lib/profile/layers.ts";
import { loadProfile } from "../../lib/profile/resolve.ts";
import { profileLaunch } from "../../lib/profile/launch.ts";
import { readBundledSources, summarizeBundled } from "../../scripts/bundle_profiles.ts";
import { parseNdjson, ROOT } from "../helpers.ts";
import { sandbox } from "./sandbox.ts";

Deno.test("lib/profile/bundled_data.ts is generated from profiles/mcp/ (rerun scripts/bundle_profiles.ts)", async () => {
  assert.deepEqual({ ...BUNDLED_PROFILES }, await readBundledSources(`${ROOT}/profiles/mcp`));
});

Deno.test("the bundled summaries for profile list are those of profiles/mcp/'s _meta.json (rerun scripts/bundle_profiles.ts)", async () => {
  const summaries = await summarizeBundled(await readBundledSources(`${ROOT}/profiles/mcp`));
  assert.deepEqual(structuredClone(BUNDLED_SUMMARIES), summaries);
  assert.deepEqual(Object.keys(summaries), await bundledLayer().servers());
});

Deno.test("every bundled profile is valid and describes itself", async (t) => {
  const servers = await bundledLayer().servers();
  assert.deepEqual(servers, ["biomcp", "context7", "demo", "everything", "filesystem", "memory"]);
  for (const name of servers) {
    await t.step(name, async () => {
      const profile = await loadProfile(name, { cwd: "/nonexistent", env: {} });
      assert.equal(profile.layer, "bundled");
      assert.ok((profile.meta.description ?? "").length > 20);
      assert.equal(profileLaunch(profile).transport, "stdio");
    });
  }
});

Deno.test("@demo works offline from any directory with a fresh HOME", async (t) => {
  const box = await sandbox();
  try {
    await t.step("jn inspect @demo lists the demo server's tools", async () => {
      const result = await box.run(["inspect", "@demo", "--format", "json"]);
      assert.equal(result.stderr, "");
      assert.equal(result.code, 0);
      const inventory = JSON.parse(result.stdout);
      assert.equal(inventory.server, "demo");
      assert.ok(inventory.tools.some((tool: { name: string }) => tool.name === "echo"));
    });
    await t.step(`jn cat "@demo/echo?text=hi" calls the tool`, async () => {
      const result = await box.run(["cat", "@demo/echo?text=hi"]);
      assert.deepEqual([result.code, result.stderr], [0, ""]);
      assert.deepEqual(parseNdjson(result.stdout), [
        {
          type: "tool_result",
          tool: "echo",
          content_type: "text",
          text: "hi",
        },
      ]);
    });
    await t.step(
      "@demo/items calls list_items with the profile's defaults under the URI's",
      async () => {
        const result = await box.run(["cat", "--json", "@demo/items?count=2"]);
        assert.deepEqual([result.code, result.stderr], [0, ""]);
        assert.deepEqual(parseNdjson(result.stdout).map((r) => (r as { name: string }).name), [
          "demo-1",
          "demo-2",
        ]);
      },
    );
    await t.step("resources, prompts and lists through the profile", async () => {
      const readme = await box.run(["cat", "@demo?resource=demo://readme"]);
      assert.deepEqual([readme.code, readme.stderr], [0, ""]);
      assert.equal((parseNdjson(readme.stdout)[0] as { type: string }).type, "resource_content");
      const prompt = await box.run(["tail", "-n", "1", "@demo?prompt=summarize&topic=MCP"]);
      assert.deepEqual([prompt.code, prompt.stderr], [0, ""]);
      assert.match(prompt.stdout, /"type":"prompt_message".*MCP/);
      const prompts = await box.run(["cat", "@demo?list=prompts"]);
      assert.deepEqual(parseNdjson(prompts.stdout).map((p) => (p as { name: string }).name), [
        "summarize",
      ]);
    });
    await t.step("the bundled schema_hash matches the live demo server", async () => {
      const result = await box.run(["mcp", "hash", "@demo", "--format", "json"]);
      assert.equal(result.code, 0, result.stderr);
      const out = JSON.parse(result.stdout);
      assert.equal(
        out.matches,
        true,
        `bundled ${out.profile_hash}, live ${out.hash}: update profiles/mcp/demo`,
      );
    });
  } finally {
    await box.dispose();
  }
});
