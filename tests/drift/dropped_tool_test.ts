/**
 * A tool of the profile that the server dropped since the profile was
 * written is schema drift, not a typo: `jn mcp schema`, `jn cat` and
 * `jn put` say so and how to fix it (exit 3), instead of "not found".
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { sandbox } from "../profile/sandbox.ts";
import { edit, fixtureProfile, schema } from "./setup.ts";
import { findTool } from "../../lib/client/call.ts";
import { DriftError, UsageError } from "../../lib/errors.ts";
import type { Profile } from "../../lib/profile/types.ts";
import type { ToolInfo } from "../../lib/types.ts";

const GONE =
  /^jn: Tool "variant_search" of @fx is gone: the server no longer offers it \(schema drift since the profile was written\)\nhint: jn profile diff @fx shows what changed; jn profile update @fx rewrites the profile to the server's tools\n$/m;

Deno.test("a tool the server dropped since the profile was written: drift, exit 3, the fix", async (t) => {
  const box = await sandbox({ here: true });
  try {
    const dir = await fixtureProfile(box);
    const runs: [string, string[], string | undefined][] = [
      ["mcp schema", ["mcp", "schema", "@fx", "variant_search"], undefined],
      ["cat", ["cat", "@fx/variant_search"], undefined],
      ["put", ["put", "@fx/variant_search"], '{"gene":"BRAF"}\n'],
    ];
    for (const [what, args, stdin] of runs) {
      await t.step(what, async () => {
        const result = await box.run(args, { ...schema("v2-removed"), stdin });
        assert.equal(result.code, 3, result.stderr);
        assert.equal(result.stdout, "");
        assert.match(result.stderr, GONE);
        assert.doesNotMatch(result.stderr, /not found|did you mean/);
      });
    }

    await t.step("under its profile name, the server's name is said too", async () => {
      await Deno.rename(join(dir, "variant_search.json"), join(dir, "variants.json"));
      await edit(
        join(dir, "variants.json"),
        (text) => text.replace("{\n", '{\n  "tool": "variant_search",\n'),
      );
      const result = await box.run(["mcp", "schema", "@fx", "variants"], schema("v2-removed"));
      assert.equal(result.code, 3, result.stderr);
      assert.match(
        result.stderr,
        /jn: Tool "variants" \(the server's "variant_search"\) of @fx is gone/,
      );
      const live = await box.run(["mcp", "schema", "@fx", "variants"]);
      assert.equal(live.code, 0, live.stderr);
      assert.equal(JSON.parse(live.stdout).name, "variant_search");
    });

    await t.step("a name in neither is still a usage error with suggestions", async () => {
      const result = await box.run(["mcp", "schema", "@fx", "variant_serch"], schema("v1"));
      assert.equal(result.code, 2);
      assert.match(result.stderr, /Tool "variant_serch" not found on server "@fx"/);
      assert.match(result.stderr, /did you mean "variant_search"\?/);
    });
  } finally {
    await box.dispose();
  }
});

Deno.test("findTool(): a profile name of a tool the server still has is no drift", () => {
  const profile = {
    name: "fx",
    metaFile: "/fx/meta.json",
    tools: [{ name: "variants", serverTool: "variant_search" }],
  } as unknown as Profile;
  const live = [{ name: "variant_search", inputSchema: { type: "object" } }] as ToolInfo[];
  assert.throws(() => findTool(live, "variants", "@fx", { profile }), UsageError);
  assert.throws(() => findTool([], "variants", "@fx", { profile }), DriftError);
});
