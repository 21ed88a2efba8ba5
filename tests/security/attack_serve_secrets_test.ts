/**
 * Attacks on what `jn serve` lets reach a host of the user's secrets
 * (docs/serve.md, "Threat model: Secrets"). The host is untrusted (a model
 * driven by whatever it read); a benign server that echoes its credential
 * (an error message quoting the token, a file it was asked to read, its own
 * environment) must show the host `***`.
 *
 * `env_passthrough` is how docs/sandbox.md tells users to give a server
 * its API key (`"env_passthrough": ["GITHUB_TOKEN"]`); the value is as
 * secret as a `${VAR}` one, yet it is not among the connection's secrets.
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { baseEnv } from "../helpers.ts";
import { FIXTURE, sandbox } from "../profile/sandbox.ts";
import { httpHost, httpServe } from "../serve/support.ts";

const TOKEN = "ghp_passthrough-s3cr3t-0123456789";

/** The `env` tool's answer through serve, for a user profile `_meta.json` of the fixture. */
async function servedEnv(meta: Record<string, unknown>): Promise<string> {
  const box = await sandbox({ here: true });
  try {
    await box.write(
      join(box.user, "fx", "_meta.json"),
      JSON.stringify({ command: "node", args: [FIXTURE], ...meta }),
    );
    const served = await httpServe(["@fx"], {
      cwd: box.project,
      env: { ...baseEnv(), HOME: box.home, API_TOKEN: TOKEN },
    });
    try {
      const host = await httpHost(served.url!);
      try {
        const result = await host.client.callTool({ name: "env", arguments: {} });
        return JSON.stringify(result);
      } finally {
        await host.close();
      }
    } finally {
      await served.close();
    }
  } finally {
    await box.dispose();
  }
}

Deno.test("control: a ${VAR} secret in a profile's env is redacted before the host sees it", async () => {
  const text = await servedEnv({ env: { API_TOKEN: "${API_TOKEN}" } });
  assert.match(text, /API_TOKEN/);
  assert.doesNotMatch(text, /s3cr3t/);
});

Deno.test("attack: a profile's env_passthrough secret reaches the host unredacted through serve", async () => {
  const text = await servedEnv({ env_passthrough: ["API_TOKEN"] });
  assert.match(text, /API_TOKEN/, "the server got the variable");
  assert.doesNotMatch(text, /s3cr3t/, "the passed-through token reached the host");
});

Deno.test("a passed-through value is redacted by every verb: jn cat's error quoting it", async () => {
  const box = await sandbox({ here: true });
  try {
    await box.write(
      join(box.user, "fx", "_meta.json"),
      JSON.stringify({ command: "node", args: [FIXTURE], env_passthrough: ["API_TOKEN"] }),
    );
    // A server's error that quotes its credential (here: the one it was given).
    const message = encodeURIComponent(`bad credential ${TOKEN}`);
    for (const flags of [[], ["--env-passthrough", "OTHER_TOKEN"]]) {
      const run = await box.run(["cat", ...flags, `@fx?tool=rpc_error&message=${message}`], {
        env: { API_TOKEN: TOKEN, OTHER_TOKEN: "other-s3cr3t-value" },
      });
      assert.notEqual(run.code, 0);
      assert.match(run.stderr, /bad credential \*\*\*/, run.stderr);
      assert.doesNotMatch(run.stderr, /s3cr3t/);
    }
    const flagged = await box.run([
      "cat",
      "--env-passthrough",
      "OTHER_TOKEN",
      `@fx?tool=rpc_error&message=${encodeURIComponent("other-s3cr3t-value")}`,
    ], { env: { OTHER_TOKEN: "other-s3cr3t-value" } });
    assert.doesNotMatch(flagged.stderr, /s3cr3t/, flagged.stderr);
    assert.match(flagged.stderr, /\*\*\*/);
  } finally {
    await box.dispose();
  }
});
