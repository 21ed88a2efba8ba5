/**
 * A profile's `allow_tools`/`deny_tools` hold for every verb of the library
 * (inspect, list, cat, call, put, the tool a schema is read from): a tool
 * they refuse is "not found", with a did-you-mean among the allowed ones
 * only, and is never listed; an alias the lists allow calls its server tool
 * even when the raw name is denied. The server's full list stays what a
 * profile records (liveTools, the schema hash). Two black-box CLI runs check
 * the commands take the same path. The server is the real fixture server.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  call,
  cat,
  inspect,
  list,
  liveTools,
  open,
  type OpenOptions,
  put,
  UsageError,
} from "../../mod.ts";
import { collectArgs } from "../../mod/source.ts";
import { connectionTool } from "../../lib/client/call.ts";
import { baseEnv } from "../helpers.ts";
import { fixtureMeta, sandbox } from "../profile/sandbox.ts";

/** @cur: a fixture profile that offers the search tools but trial_*, echo, and an alias. */
async function curated() {
  const box = await sandbox({ here: true });
  const dir = join(box.user, "cur");
  await box.write(
    join(dir, "_meta.json"),
    fixtureMeta({
      allow_tools: ["*search*", "echo", "variants"],
      deny_tools: ["trial_*", "variant_search"],
    }),
  );
  await box.write(
    join(dir, "variants.json"),
    `{"tool": "variant_search", "defaults": {"limit": 1}}`,
  );
  const options: OpenOptions = { cwd: box.project, env: { ...baseEnv(), HOME: box.home } };
  return { box, options };
}

const names = (tools: { name: string }[]) => tools.map((tool) => tool.name);

Deno.test("allow_tools/deny_tools: inspect and list omit what they refuse; liveTools does not", async () => {
  const { box, options } = await curated();
  try {
    await using conn = await open("@cur", options);
    assert.deepEqual(names((await inspect(conn)).tools), ["search", "echo"]);
    assert.deepEqual(names(await list(conn, "tools")), ["search", "echo"]);
    const all = names(await liveTools(conn));
    assert.ok(all.includes("trial_search") && all.includes("env") && all.length > 10, `${all}`);
    await using listing = await open("@cur?list=tools", options);
    const { records } = await cat(listing);
    assert.deepEqual(records.map((r) => (r as { name: string }).name), ["search", "echo"]);
  } finally {
    await box.dispose();
  }
});

Deno.test("allow_tools/deny_tools: a refused tool is not found by call, cat, put or a schema lookup", async (t) => {
  const { box, options } = await curated();
  try {
    await using conn = await open("@cur", options);
    const notFound = async (run: () => Promise<unknown>, name: string) => {
      const error = await run().then(() => undefined, (e) => e);
      assert.ok(error instanceof UsageError, String(error));
      assert.equal(error.message, `Tool "${name}" not found on server "@cur"`);
      return error.hint ?? "";
    };
    await t.step("denied by deny_tools, though the server has it", async () => {
      const hint = await notFound(
        () => call(conn, "trial_search", { condition: "x" }),
        "trial_search",
      );
      // The near misses are the allowed tools, never the denied one.
      assert.equal(
        hint,
        "its tools: search, echo, variants (some servers list more with --sampling-command)",
      );
    });
    await t.step("not in allow_tools; its typo suggests an allowed name only", async () => {
      await notFound(() => call(conn, "env"), "env");
      const hint = await notFound(() => call(conn, "ecoh", { text: "x" }), "ecoh");
      assert.equal(hint, `did you mean "echo"?`);
      // variant_search is denied: a typo of it suggests the allowed alias, not the raw name.
      const near = await notFound(() => call(conn, "variant_serch"), "variant_serch");
      assert.doesNotMatch(near, /"variant_search"/);
    });
    await t.step("put refuses before reading a record", async () => {
      await notFound(
        () => Array.fromAsync(put(conn, "trial_search", [{ condition: "x" }])),
        "trial_search",
      );
    });
    await t.step("the tool a schema is read from (jn mcp schema)", async () => {
      await notFound(() => connectionTool(conn, "variant_search"), "variant_search");
      const tool = await connectionTool(conn, "variant_search", { asked: "variants" });
      assert.equal(tool.name, "variant_search");
    });
    await t.step("an allowed call goes through", async () => {
      const result = await call(conn, "echo", { text: "hi" });
      assert.equal(result.isError, undefined);
    });
  } finally {
    await box.dispose();
  }
});

Deno.test("allow_tools/deny_tools: an allowed alias calls its denied server tool", async () => {
  const { box, options } = await curated();
  try {
    await using conn = await open("@cur/variants?gene=TP53", options);
    const { target } = conn;
    const args = collectArgs({ query: target.queryArgs, defaults: target.defaults });
    const { records } = await cat(conn, { args, json: true });
    const hits = records.flat() as { tool: string; arguments: Record<string, unknown> }[];
    assert.deepEqual(hits.map((hit) => [hit.tool, hit.arguments]), [
      ["variant_search", { limit: 1, gene: "TP53" }],
    ]);
  } finally {
    await box.dispose();
  }
});

Deno.test("allow_tools/deny_tools through the CLI: cat exits 2, mcp tools omits, mcp hash hashes all", async () => {
  const { box } = await curated();
  try {
    const denied = await box.run(["cat", "@cur/trial_search?condition=x"]);
    assert.deepEqual([denied.code, denied.stdout], [2, ""]);
    assert.match(denied.stderr, /^jn: Tool "trial_search" not found on server "@cur"\n/);
    const tools = await box.run(["mcp", "tools", "@cur"]);
    assert.equal(tools.code, 0, tools.stderr);
    assert.deepEqual(tools.stdout.trim().split("\n").map((l) => JSON.parse(l).name), [
      "search",
      "echo",
    ]);
    const schema = await box.run(["mcp", "schema", "@cur", "variants"]);
    assert.equal(schema.code, 0, schema.stderr);
    assert.equal(JSON.parse(schema.stdout).name, "variant_search");
    const hash = await box.run(["mcp", "hash", "@cur", "--format", "json"]);
    assert.equal(hash.code, 0, hash.stderr);
    assert.ok("trial_search" in JSON.parse(hash.stdout).tools, "the hash reads every tool");
  } finally {
    await box.dispose();
  }
});
