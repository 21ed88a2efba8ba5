/**
 * The environment a server gets, black-box through the fixture's `env` tool:
 * the safe defaults and nothing else of the caller's, plus exactly the
 * variables named by `--env-passthrough` (also inside the sandbox).
 */

import assert from "node:assert/strict";
import { SAFE_ENV_VARS } from "../../lib/sandbox/env.ts";
import { FIXTURES, parseNdjson, runJn } from "../helpers.ts";
import { requireBwrap } from "./bwrap_support.ts";

const SERVERS = `${FIXTURES}/servers`;
const FIXTURE = `mcp+node://${SERVERS}/fixture.mjs?tool=env`;
const NO_BWRAP = await requireBwrap("tests/sandbox/env_test.ts");
const CALLER = { JN_TEST_SECRET: "s3cr3t-value", JN_TEST_OTHER: "other", LOGNAME: "tester" };

async function serverEnv(flags: string[]): Promise<Record<string, string>> {
  // In the fixture's directory: visible in the sandbox, so no notice on stderr.
  const result = await runJn(["cat", ...flags, FIXTURE], { env: CALLER, cwd: SERVERS });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stderr, "");
  const [record] = parseNdjson(result.stdout) as { text: string }[];
  const env = JSON.parse(record.text);
  // jn's marker of the server's process tree (see docs/remote.md), not a caller variable.
  delete env.JN_PROCESS_TREE;
  return env;
}

Deno.test("a server sees only the safe defaults and what was passed through", async (t) => {
  await t.step("a secret in the caller's environment does not reach the server", async () => {
    const env = await serverEnv([]);
    assert.equal(env.JN_TEST_SECRET, undefined);
    assert.equal(env.JN_TEST_OTHER, undefined);
    assert.equal(env.NO_COLOR, undefined, "set for jn by the test helper, not for the server");
    assert.equal(env.LOGNAME, "tester", "a safe default is inherited");
    assert.deepEqual(Object.keys(env).filter((name) => !SAFE_ENV_VARS.includes(name)), []);
  });

  await t.step("--env-passthrough passes the named variable, and only it", async () => {
    const env = await serverEnv(["--env-passthrough", "JN_TEST_SECRET"]);
    assert.equal(env.JN_TEST_SECRET, "s3cr3t-value");
    assert.equal(env.JN_TEST_OTHER, undefined);
    assert.deepEqual(
      Object.keys(env).filter((name) => !SAFE_ENV_VARS.includes(name)),
      ["JN_TEST_SECRET"],
    );
  });

  await t.step("--env-passthrough is repeatable; an unset name is skipped", async () => {
    const env = await serverEnv([
      "--env-passthrough",
      "JN_TEST_SECRET",
      "--env-passthrough",
      "JN_TEST_OTHER",
      "--env-passthrough",
      "JN_TEST_UNSET",
    ]);
    assert.equal(env.JN_TEST_SECRET, "s3cr3t-value");
    assert.equal(env.JN_TEST_OTHER, "other");
    assert.equal("JN_TEST_UNSET" in env, false);
  });

  await t.step({
    name: "inside the sandbox the same holds",
    ignore: NO_BWRAP,
    fn: async () => {
      const env = await serverEnv(["--sandbox", "--env-passthrough", "JN_TEST_OTHER"]);
      assert.equal(env.JN_TEST_OTHER, "other");
      assert.equal(env.JN_TEST_SECRET, undefined);
      // bwrap sets PWD to the directory it changed to: the server's own, not the caller's.
      const extra = Object.keys(env).filter((name) => !SAFE_ENV_VARS.includes(name));
      assert.deepEqual(extra.filter((name) => name !== "PWD"), ["JN_TEST_OTHER"]);
    },
  });

  await t.step("a name that is not a variable name is a usage error", async () => {
    const result = await runJn(["cat", "--env-passthrough", "A=B", FIXTURE]);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /^jn: Invalid --env-passthrough "A=B": not a variable name/);
  });
});
