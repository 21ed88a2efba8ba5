/**
 * serve opens every source with `open()`'s policy, exactly as `cat` does:
 * an untrusted project profile is refused before anything starts, the
 * server gets the minimal environment (a variable of the caller's only when
 * passed through by name), `--sandbox` confines it (bubblewrap), and a
 * profile whose schema broke under `schema_validation: "error"` is a failed
 * source, not a served one.
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { ConfigError } from "../../lib/errors.ts";
import { baseEnv } from "../helpers.ts";
import { fixtureMeta, sandbox } from "../profile/sandbox.ts";
import { requireBwrap } from "../sandbox/bwrap_support.ts";
import { fixtureUri, httpHost, httpServe, stdioHost } from "./support.ts";

const NO_BWRAP = await requireBwrap("tests/serve/policy_test.ts");

Deno.test("serve: an untrusted project profile is refused before anything starts", async () => {
  const box = await sandbox();
  try {
    await box.write(join(box.projectProfiles, "proj", "_meta.json"), fixtureMeta());
    await assert.rejects(
      httpServe(["@proj"], { cwd: box.project, env: { ...baseEnv(), HOME: box.home } }),
      (error: Error) => error instanceof ConfigError && /trust/.test(error.message),
    );
  } finally {
    await box.dispose();
  }
});

Deno.test("serve: the server gets the minimal environment, a variable only by name", async () => {
  const env = { JN_SERVE_PRIVATE: "private-value-123" };
  for (const passthrough of [false, true]) {
    const host = await stdioHost([
      ...(passthrough ? ["--env-passthrough", "JN_SERVE_PRIVATE"] : []),
      fixtureUri("fixture.mjs"),
    ], { env });
    try {
      const result = await host.client.callTool({ name: "env", arguments: {} });
      const seen = JSON.parse((result.content as { text: string }[])[0].text);
      // Passed through, the server has it; a passed-through value is a secret: the host sees ***.
      assert.equal(seen.JN_SERVE_PRIVATE, passthrough ? "***" : undefined);
    } finally {
      await host.close();
    }
  }
});

Deno.test({
  name: "serve --sandbox: the server cannot read the user's files",
  ignore: NO_BWRAP,
  async fn() {
    const box = await sandbox();
    try {
      const secret = await box.write(join(box.home, "private.txt"), "top secret");
      const served = await httpServe([fixtureUri("fixture.mjs")], {
        cwd: box.project,
        env: { ...baseEnv(), HOME: box.home },
        sandbox: { network: false, read: [], write: [] },
      });
      const host = await httpHost(served.url!);
      try {
        const read = await host.client.callTool({ name: "read_file", arguments: { path: secret } });
        assert.equal(read.isError, true, JSON.stringify(read));
        assert.doesNotMatch(JSON.stringify(read), /top secret/);
      } finally {
        await host.close();
        await served.close();
      }
    } finally {
      await box.dispose();
    }
  },
});

Deno.test("serve: a profile whose schema broke under schema_validation error is a failed source", async () => {
  const box = await sandbox();
  try {
    await box.write(
      join(box.user, "broken", "_meta.json"),
      fixtureMeta({ schema_hash: "0".repeat(32), schema_validation: "error" }),
    );
    await box.write(
      join(box.user, "broken", "gone.json"),
      JSON.stringify({ inputSchema: { type: "object", properties: {} } }),
    );
    const failures: string[] = [];
    const served = await httpServe(["@broken", "@demo"], {
      cwd: box.project,
      env: { ...baseEnv(), HOME: box.home },
      events: {
        onSourceFailed: (source, error) => void failures.push(`${source}: ${error.message}`),
      },
    });
    const host = await httpHost(served.url!);
    try {
      const names = (await host.client.listTools()).tools.map((tool) => tool.name);
      assert.ok(
        names.includes("demo__add") && !names.some((n) => n.startsWith("broken__")),
        names.join(" "),
      );
      assert.equal(failures.length, 1);
      assert.match(failures[0], /^broken: /);
      assert.match(host.client.getInstructions() ?? "", /the source "broken" failed to start/);
    } finally {
      await host.close();
      await served.close();
    }
  } finally {
    await box.dispose();
  }
});
