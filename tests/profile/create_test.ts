/**
 * `jn profile create`: from the seed's one-document JSON on stdin, and
 * discovered from a live server (`--from`), with its refusal to overwrite.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { withRecordedFlags } from "../../lib/profile/edit/from_live.ts";
import { requireBwrap } from "../sandbox/bwrap_support.ts";
import { FIXTURE, sandbox } from "./sandbox.ts";

const SEED = `// the seed's "Phase 3" document
{
  "server": "biomcp",
  "description": "BioMCP: Biomedical data",
  "launcher": { "command": "uv", "args": ["run", "--with", "biomcp-python", "biomcp", "run"], "transport": "stdio" },
  "tools": {
    "search": {
      "description": "General biomedical search.",
      "parameters": { "gene": { "type": "string", "required": true } },
      "output_format": "text/plain",
      "notes": "Returns prose."
    },
    "trial_search": { "description": "Trials", "parameters": {} }
  },
  "schema_hash": "a3f5b8c2e1f4a3f5b8c2e1f4a3f5b8c2",
  "created": "2025-11-12",
  "tested_with": { "search": ["BRAF", "BRAF+melanoma"], "trial_search": ["BRAF+PHASE3"] },
}`;

async function readJson(path: string) {
  return JSON.parse(await Deno.readTextFile(path));
}

Deno.test("jn profile create NAME < seed.json splits the document into _meta.json and tool files", async (t) => {
  const box = await sandbox({ here: true });
  const dir = join(box.user, "bio");
  try {
    await t.step("written to the user layer", async () => {
      const result = await box.run(["profile", "create", "bio"], { stdin: SEED });
      assert.deepEqual([result.code, result.stderr], [0, ""]);
      assert.equal(
        result.stdout,
        `Created @bio in ${dir}: _meta.json, search.json, trial_search.json\n`,
      );
      assert.deepEqual(await readJson(`${dir}/_meta.json`), {
        description: "BioMCP: Biomedical data",
        schema_hash: "a3f5b8c2e1f4a3f5b8c2e1f4a3f5b8c2",
        created: "2025-11-12",
        command: "uv",
        args: ["run", "--with", "biomcp-python", "biomcp", "run"],
        transport: "stdio",
      });
      const search = await readJson(`${dir}/search.json`);
      assert.deepEqual(search.tested_with, ["BRAF", "BRAF+melanoma"]);
      assert.equal(search.output_format, "text/plain");
    });
    await t.step("an existing profile is kept without --force (exit 2)", async () => {
      const result = await box.run(["profile", "create", "bio"], { stdin: `{"command": "x"}` });
      assert.deepEqual([result.code, result.stdout], [2, ""]);
      assert.match(result.stderr, /^jn: Profile @bio already exists in .*\nhint: add --force/);
      assert.equal((await readJson(`${dir}/_meta.json`)).command, "uv");
    });
    await t.step("--force replaces it whole (old tool files go)", async () => {
      const result = await box.run(["profile", "create", "bio", "--force"], {
        stdin: `{"command": "x"}`,
      });
      assert.equal(result.code, 0, result.stderr);
      assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["_meta.json"]);
    });
    await t.step("invalid input is exit 3 and writes nothing", async () => {
      for (
        const [stdin, message] of [
          [`{"description": "no launch"}`, `needs "command" (a local server) or "url"`],
          [`{"command": "x", "args": "a b"}`, `$.args: must be an array of strings`],
          [`{"command": "x",`, `Invalid JSON in <stdin>:1:17`],
        ]
      ) {
        const result = await box.run(["profile", "create", "other"], { stdin });
        assert.equal(result.code, 3, stdin);
        assert.ok(result.stderr.includes(message), result.stderr);
      }
      await assert.rejects(Deno.stat(join(box.user, "other")));
    });
    await t.step("a tool's own fields and the launcher's, each at its JSON path", async () => {
      const stdin = JSON.stringify({
        launcher: { command: "x", args: "a b", cmd: 1 },
        tools: { echo: { description: 3, notes: [1] }, add: "nope" },
      });
      const result = await box.run(["profile", "create", "other"], { stdin });
      assert.equal(result.code, 3);
      assert.equal(
        result.stderr,
        "jn: Invalid profile in <stdin>: 5 problems\n" +
          "  $.tools.echo.description: must be a string\n" +
          "  $.tools.echo.notes: must be a string or an array of strings\n" +
          "  $.tools.add: must be an object\n" +
          "  $.launcher.cmd: is not a launch field\n" +
          "  $.launcher.args: must be an array of strings\n" +
          "hint: fix each line above in the document, then create it again\n",
      );
      await assert.rejects(Deno.stat(join(box.user, "other")));
    });
    await t.step("a bad name is a usage error", async () => {
      const result = await box.run(["profile", "create", "../x"], { stdin: `{"command": "x"}` });
      assert.equal(result.code, 2);
    });
    await t.step("--project writes .jn/profiles/mcp/NAME and trusts it", async () => {
      const meta = JSON.stringify({ command: "node", args: [FIXTURE] });
      const result = await box.run(["profile", "create", "mine", "--project"], { stdin: meta });
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stderr, /trusted the new project profile @mine/);
      const call = await box.run(["cat", "@mine/echo?text=x"]);
      assert.deepEqual([call.code, call.stderr], [0, ""]);
    });
  } finally {
    await box.dispose();
  }
});

Deno.test("jn profile create reports every problem of a document at once, each at its JSON path", async () => {
  const box = await sandbox({ here: true });
  const document = JSON.stringify({
    description: 7,
    launcher: { args: ["-y", 1], shell: "bash" },
    env: { PORT: 8080 },
    tools: {
      search: {
        parameters: { limit: { type: "number" }, q: { type: "string" } },
        defaults: { limit: "ten", q: "x" },
        examples: {},
      },
      "odd name": {
        inputSchema: { properties: { n: { type: ["integer", "null"] } } },
        defaults: { n: 1.5 },
      },
      broken: [],
    },
  });
  try {
    const result = await box.run(["profile", "create", "many"], { stdin: document });
    assert.equal(result.code, 3);
    assert.equal(result.stdout, "");
    assert.equal(
      result.stderr,
      "jn: Invalid profile in <stdin>: 9 problems\n" +
        '  $.env.PORT: must be a string (quote it: "8080")\n' +
        "  $.description: must be a string\n" +
        "  $.tools.search.examples: must be an array\n" +
        '  $.tools.search.defaults.limit: expected a number, got "ten"\n' +
        '  $.tools["odd name"].defaults.n: expected an integer or null, got 1.5\n' +
        "  $.tools.broken: must be an object\n" +
        "  $.launcher.shell: is not a launch field\n" +
        "  $.launcher.args[1]: must be a string, got 1\n" +
        '  $: needs "command" (a local server) or "url" (a remote one)\n' +
        "hint: fix each line above in the document, then create it again\n",
    );
    await assert.rejects(Deno.stat(join(box.user, "many")));
  } finally {
    await box.dispose();
  }
});

Deno.test("jn profile create NAME --from URI records every tool, its snapshot and the seed's hash", async () => {
  const box = await sandbox({ here: true });
  const dir = join(box.user, "fx");
  try {
    const uri = `mcp+node://${FIXTURE}?command=--schema&command=v1`;
    const result = await box.run(["profile", "create", "fx", "--from", uri]);
    assert.equal(result.code, 0, result.stderr);
    const meta = await readJson(`${dir}/_meta.json`);
    assert.deepEqual(
      {
        command: meta.command,
        args: meta.args,
        transport: meta.transport,
        v: meta.schema_validation,
      },
      { command: "node", args: [FIXTURE, "--schema", "v1"], transport: "stdio", v: "warn" },
    );
    assert.match(meta.schema_updated, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    // The version has a field of its own, which profile update keeps current.
    assert.match(meta.description, /^jn-fixture: Fixture server/);
    assert.equal(meta.server_version, "1.0.0");
    const search = await readJson(`${dir}/search.json`);
    assert.deepEqual(search.parameters.gene, {
      type: "string",
      required: true,
      description: "Gene symbol, e.g. BRAF",
    });
    assert.deepEqual(search.inputSchema.required, ["gene"]);
    // The hash is the seed's function over the tools the snapshots recorded.
    const tools = [];
    for (const entry of Deno.readDirSync(dir)) {
      if (entry.name === "_meta.json") continue;
      const def = await readJson(`${dir}/${entry.name}`);
      tools.push({ name: entry.name.replace(/\.json$/, ""), inputSchema: def.inputSchema });
    }
    assert.equal(meta.schema_hash, await seedHash(tools));
    const validate = await box.run(["profile", "validate", "@fx"]);
    assert.deepEqual([validate.code, validate.stderr], [0, ""]);
    assert.match(validate.stdout, /^@fx: valid \(schema hash [0-9a-f]{32}\)\n$/);
  } finally {
    await box.dispose();
  }
});

/** The seed's calculate_schema_hash, run by python (tests/schema/vectors.py). */
export async function seedHash(tools: unknown[]): Promise<string> {
  const script = fileURLToPath(new URL("../schema/vectors.py", import.meta.url));
  const child = new Deno.Command("python3", {
    args: [script, "--stdin"],
    stdin: "piped",
    stdout: "piped",
  })
    .spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(JSON.stringify([tools])));
  await writer.close();
  const out = await child.output();
  return JSON.parse(new TextDecoder().decode(out.stdout))[0].hash;
}

Deno.test("jn profile create --from records the launch flags given, and says which it cannot", async () => {
  const box = await sandbox({ here: true });
  const dir = join(box.user, "flags");
  try {
    const uri = `mcp+node://${FIXTURE}`;
    await Deno.mkdir(join(box.project, "data"));
    const result = await box.run([
      "profile",
      "create",
      "flags",
      "--from",
      uri,
      "--env-passthrough",
      "FIXTURE_TOKEN",
      "--env-passthrough",
      "OTHER_VAR",
      "--root",
      "data",
      "--timeout",
      "5s",
      "--protocol",
      "legacy",
    ], { env: { FIXTURE_TOKEN: "tok-1234", OTHER_VAR: "x" } });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(
      result.stderr,
      "jn: not recorded: --timeout (a profile has no field for it): give it on each use\n" +
        "jn: not recorded: --protocol (a profile has no field for it): give it on each use\n",
    );
    const meta = await readJson(`${dir}/_meta.json`);
    assert.deepEqual(meta.env_passthrough, ["FIXTURE_TOKEN", "OTHER_VAR"]);
    assert.deepEqual(meta.roots, ["data"]);
    assert.equal(meta.sandbox, undefined);
    // The recorded passthrough works: the server sees the variable without the flag.
    const env = await box.run(["cat", "--json", "@flags/env"], {
      env: { FIXTURE_TOKEN: "tok-1234" },
    });
    assert.equal(env.code, 0, env.stderr);
    assert.ok(env.stdout.includes(`"FIXTURE_TOKEN"`), env.stdout);
    const quiet = await box.run([
      "profile",
      "create",
      "flags2",
      "--from",
      "@flags",
      "--env-passthrough",
      "THIRD",
      "--quiet",
      "--timeout",
      "5s",
    ]);
    assert.deepEqual([quiet.code, quiet.stderr], [0, ""]);
    const copied = await readJson(join(box.user, "flags2", "_meta.json"));
    assert.deepEqual(copied.env_passthrough, ["FIXTURE_TOKEN", "OTHER_VAR", "THIRD"]);
    assert.deepEqual(copied.roots, ["data"]);
  } finally {
    await box.dispose();
  }
});

Deno.test("withRecordedFlags() maps --sandbox*, --header and --token-env to profile fields", () => {
  const stdio = { command: "node", args: ["s.mjs"], transport: "stdio" as const };
  assert.deepEqual(withRecordedFlags(stdio, { sandbox: { network: false, read: [], write: [] } }), {
    launch: { ...stdio, sandbox: true },
    skipped: [],
  });
  assert.deepEqual(
    withRecordedFlags(stdio, {
      sandbox: { network: ["api.example.com"], read: ["~/data"], write: ["./out"] },
      envPassthrough: ["A"],
      headers: { "X-Ignored": "stdio has no headers" },
    }).launch,
    {
      ...stdio,
      env_passthrough: ["A"],
      sandbox: { network: ["api.example.com"], read: ["~/data"], write: ["./out"] },
    },
  );
  // A profile's own sandbox (--from @profile) is widened, as a use merges them.
  assert.deepEqual(
    withRecordedFlags({ ...stdio, sandbox: { network: ["a.example"], read: ["./data"] } }, {
      sandbox: { network: ["b.example"], read: ["./data", "./more"], write: [] },
    }).launch.sandbox,
    { network: ["a.example", "b.example"], read: ["./data", "./more"] },
  );
  assert.deepEqual(
    withRecordedFlags({ ...stdio, sandbox: true }, {
      sandbox: { network: true, read: [], write: [] },
    }).launch.sandbox,
    { network: true },
  );
  const remote = { transport: "http" as const, url: "https://example.com/mcp" };
  assert.deepEqual(
    withRecordedFlags(remote, {
      headers: { "X-Team": "a${b}", "X-Api-Key": "sekrit" },
      tokenEnv: "GH_TOKEN",
      envPassthrough: ["A"],
      roots: ["/srv"],
    }),
    {
      launch: {
        ...remote,
        headers: { "X-Team": "a$${b}", Authorization: "Bearer ${GH_TOKEN}" },
        roots: ["/srv"],
      },
      skipped: ["X-Api-Key"],
    },
  );
});

const NO_BWRAP = await requireBwrap("tests/profile/create_test.ts");

Deno.test({
  name: "jn profile create --from --sandbox-write records the sandbox, and the profile uses it",
  ignore: NO_BWRAP,
  fn: async () => {
    const box = await sandbox({ here: true });
    try {
      await Deno.mkdir(join(box.project, "out"));
      const created = await box.run([
        "profile",
        "create",
        "boxed",
        "--from",
        `mcp+node://${FIXTURE}`,
        "--sandbox-write",
        "out",
      ]);
      assert.equal(created.code, 0, created.stderr);
      assert.ok(!created.stderr.includes("not recorded"), created.stderr);
      const meta = await readJson(join(box.user, "boxed", "_meta.json"));
      assert.deepEqual(meta.sandbox, { network: false, write: ["out"] });
      const call = await box.run(["cat", "--debug", "--json", "@boxed/echo?text=hi"]);
      assert.equal(call.code, 0, call.stderr);
      assert.match(call.stderr, /jn: debug: sandboxed: .*bwrap/);
    } finally {
      await box.dispose();
    }
  },
});
