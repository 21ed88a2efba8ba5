/**
 * The profile fields of the sandbox, black-box: `sandbox`, `env_passthrough`
 * and `deno_permissions` in a user profile's `_meta.json` reach the server
 * exactly as the flags do, and a project profile must be trusted again when
 * one of them changes.
 */

import assert from "node:assert/strict";
import { FIXTURES, parseNdjson, runJn, tempDir } from "../helpers.ts";
import { requireBwrap } from "./bwrap_support.ts";

const SCRIPT = `${FIXTURES}/servers/fixture.mjs`;
const NO_BWRAP = await requireBwrap("tests/sandbox/profile_sandbox_test.ts");

async function writeProfile(dir: string, name: string, meta: Record<string, unknown>) {
  await Deno.mkdir(`${dir}/${name}`, { recursive: true });
  await Deno.writeTextFile(`${dir}/${name}/_meta.json`, JSON.stringify(meta, null, 2));
}

Deno.test("profile fields confine the server like the flags", async (t) => {
  const home = await tempDir("jn-profile-home-");
  const data = await tempDir("jn-profile-data-");
  const profiles = `${home}/.local/jn/profiles/mcp`;
  await Deno.writeTextFile(`${data}/secret.txt`, "secret");
  await writeProfile(profiles, "boxed", {
    command: "node",
    args: [SCRIPT],
    env_passthrough: ["JN_TEST_PASS"],
    sandbox: { network: false, write: [data] },
  });
  await writeProfile(profiles, "open", { command: "node", args: [SCRIPT] });
  await writeProfile(profiles, "denobox", {
    command: "deno",
    args: ["run", SCRIPT],
    deno_permissions: { env: true },
  });
  const env = { HOME: home, JN_TEST_PASS: "passed", JN_TEST_SECRET: "s3cr3t" };
  const cat = async (ref: string) => {
    const result = await runJn(["cat", ref], { env });
    const [record] = parseNdjson(result.stdout) as { text: string; isError?: boolean }[];
    return { ...result, record };
  };
  try {
    await t.step({
      name: "env_passthrough passes the named variable only",
      ignore: NO_BWRAP, // @boxed is sandboxed too
      fn: async () => {
        const run = await cat("@open?tool=env");
        assert.equal(run.code, 0, run.stderr);
        assert.equal(JSON.parse(run.record.text).JN_TEST_PASS, undefined);
        const boxed = await cat("@boxed?tool=env");
        assert.equal(boxed.code, 0, boxed.stderr);
        const seen = JSON.parse(boxed.record.text);
        assert.equal(seen.JN_TEST_PASS, "passed");
        assert.equal(seen.JN_TEST_SECRET, undefined);
      },
    });
    await t.step({
      name: "sandbox: the declared path is writable, the rest of the user's files hidden",
      ignore: NO_BWRAP,
      fn: async () => {
        const write = await cat(`@boxed?tool=write_file&path=${data}/out.txt&text=ok`);
        assert.equal(write.code, 0, write.stderr);
        assert.equal(await Deno.readTextFile(`${data}/out.txt`), "ok");
        const open = await cat(
          `@open?tool=read_file&path=${home}/.local/jn/profiles/mcp/open/_meta.json`,
        );
        assert.equal(open.code, 0, open.stderr);
        const hidden = await cat(
          `@boxed?tool=read_file&path=${home}/.local/jn/profiles/mcp/open/_meta.json`,
        );
        assert.equal(hidden.code, 1);
        assert.match(hidden.record.text, /ENOENT/);
        assert.match(hidden.stderr, /hint: the server runs sandboxed \(no network; writable: /);
      },
    });
    await t.step("deno_permissions grant a deno run server exactly that", async () => {
      const granted = await cat("@denobox?tool=env");
      assert.equal(granted.code, 0, granted.stderr);
      assert.equal(JSON.parse(granted.record.text).JN_TEST_SECRET, undefined);
      const refused = await cat(`@denobox?tool=read_file&path=${data}/secret.txt`);
      assert.equal(refused.code, 1);
      assert.match(refused.record.text, /Requires read access/);
    });
    await t.step("an invalid field is a configuration error naming the file (exit 3)", async () => {
      await writeProfile(profiles, "bad", { command: "node", sandbox: { netwrk: true } });
      const result = await runJn(["cat", "@bad?tool=env"], { env });
      assert.equal(result.code, 3);
      assert.match(
        result.stderr,
        /^jn: Invalid profile .*bad\/_meta\.json: "sandbox" has an unknown field "netwrk"/,
      );
    });
  } finally {
    await Deno.remove(home, { recursive: true });
    await Deno.remove(data, { recursive: true });
  }
});

Deno.test("a project profile needs a new trust when its sandbox fields change", async () => {
  const home = await tempDir("jn-trust-home-");
  const project = await tempDir("jn-trust-project-");
  const dir = `${project}/.jn/profiles/mcp`;
  const meta = { command: "node", args: [SCRIPT] };
  await writeProfile(dir, "proj", meta);
  try {
    const opts = { env: { HOME: home, JN_TEST_SECRET: "s3cr3t" }, cwd: project };
    const trust = await runJn(["profile", "trust", "@proj"], opts);
    assert.equal(trust.code, 0, trust.stderr);
    assert.equal((await runJn(["cat", "@proj?tool=echo"], opts)).code, 0);
    await writeProfile(dir, "proj", { ...meta, env_passthrough: ["JN_TEST_SECRET"] });
    const changed = await runJn(["cat", "@proj?tool=env"], opts);
    assert.equal(changed.code, 3);
    assert.match(changed.stderr, /changed since you trusted it: modified _meta\.json \(env_pass/);
    assert.equal(changed.stdout, "");
  } finally {
    await Deno.remove(home, { recursive: true });
    await Deno.remove(project, { recursive: true });
  }
});

Deno.test({
  name: "a sandboxed server cannot rewrite its profile's directory, even under a writable path",
  ignore: NO_BWRAP,
  fn: async () => {
    const home = await tempDir("jn-trust-home-");
    const project = await tempDir("jn-trust-project-");
    const dir = `${project}/.jn/profiles/mcp/asks`;
    // The sampling command runs unconfined, from the profile's directory: a server given the
    // project writable must not be able to plant what it runs.
    await writeProfile(`${project}/.jn/profiles/mcp`, "asks", {
      command: "node",
      args: [SCRIPT],
      sandbox: { write: ["."] },
      sampling_command: "./llm.sh",
    });
    await Deno.writeTextFile(`${dir}/llm.sh`, "#!/bin/sh\necho fine\n");
    try {
      const opts = { env: { HOME: home }, cwd: project };
      assert.equal((await runJn(["profile", "trust", "@asks"], opts)).code, 0);
      const write = (path: string) =>
        runJn(["cat", `@asks?tool=write_file&path=${path}&text=planted`], opts);
      const outside = await write(`${project}/out.txt`);
      assert.equal(outside.code, 0, outside.stderr);
      assert.equal(await Deno.readTextFile(`${project}/out.txt`), "planted");
      const planted = await write(`${dir}/llm.sh`);
      assert.equal(planted.code, 1, planted.stderr);
      assert.match(planted.stdout, /EROFS|read-only/);
      assert.equal(await Deno.readTextFile(`${dir}/llm.sh`), "#!/bin/sh\necho fine\n");
    } finally {
      await Deno.remove(home, { recursive: true });
      await Deno.remove(project, { recursive: true });
    }
  },
});
