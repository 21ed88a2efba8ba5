/**
 * jn as a library, used only through mod.ts, is the same jn as the CLI: a
 * profile's sandbox is applied (merged with the caller's), a drifted
 * profile gives the warning the CLI prints — or the error it exits 3 with —
 * and `put` turns an async iterable of records into records, in order.
 * The servers are real (the fixture server, jn's demo server).
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import {
  call,
  type ClientEvents,
  DriftError,
  driftWarning,
  open,
  type OpenOptions,
  put,
  SandboxError,
} from "../../mod.ts";
import { edit, fixtureProfile, schema } from "../drift/setup.ts";
import { baseEnv, tempDir } from "../helpers.ts";
import { fixtureMeta, sandbox } from "../profile/sandbox.ts";
import { requireBwrap } from "../sandbox/bwrap_support.ts";

const NO_BWRAP = await requireBwrap("tests/lib/library_test.ts");

/** What a program gives open(): its directory and its environment, as data. */
function options(cwd: string, home: string, extra: Partial<OpenOptions> = {}): OpenOptions {
  return { cwd, env: { ...baseEnv(), HOME: home }, ...extra };
}

Deno.test({
  name: "open() applies a profile's sandbox, merged with the caller's",
  ignore: NO_BWRAP,
  fn: async () => {
    const box = await sandbox();
    const data = await tempDir("jn-lib-data-");
    const extra = await tempDir("jn-lib-extra-");
    try {
      await box.write(
        join(box.user, "boxed", "_meta.json"),
        fixtureMeta({ sandbox: { network: false, write: [data] } }),
      );
      await using conn = await open(
        "@boxed",
        options(box.project, box.home, { sandbox: { network: false, read: [extra], write: [] } }),
      );
      assert.deepEqual(conn.sandbox?.policy, { network: false, read: [extra], write: [data] });
      assert.equal(conn.launch.transport, "stdio");
      if (conn.launch.transport !== "stdio") return;
      assert.match(conn.launch.command, /bwrap$/, "the server is started inside bubblewrap");
      assert.ok(conn.launch.args.includes("--unshare-all"), conn.launch.args.join(" "));
      assert.ok(!conn.launch.args.includes("--share-net"), "no network: the policy says so");
      const written = await call(conn, "write_file", { path: `${data}/out.txt`, text: "ok" });
      assert.equal(written.isError, undefined, JSON.stringify(written));
      assert.equal(await Deno.readTextFile(`${data}/out.txt`), "ok");
      const hidden = await call(conn, "read_file", { path: join(box.user, "boxed", "_meta.json") });
      assert.equal(hidden.isError, true);
      assert.match(String(hidden.content[0].text), /ENOENT/);
    } finally {
      await box.dispose();
      await Deno.remove(data, { recursive: true });
      await Deno.remove(extra, { recursive: true });
    }
  },
});

Deno.test({
  name: "open() refuses to start a sandboxed profile unconfined when bubblewrap is missing",
  ignore: !NO_BWRAP || Deno.build.os !== "linux",
  fn: async () => {
    const box = await sandbox();
    try {
      await box.write(join(box.user, "boxed", "_meta.json"), fixtureMeta({ sandbox: true }));
      await assert.rejects(
        () => open("@boxed", options(box.project, box.home)),
        SandboxError,
      );
    } finally {
      await box.dispose();
    }
  },
});

Deno.test("open() checks a drifted profile exactly as the CLI does", async (t) => {
  const box = await sandbox();
  try {
    const dir = await fixtureProfile(box);
    const drifted = (events: ClientEvents = {}) =>
      open(
        "@fx",
        options(box.project, box.home, {
          events,
          env: { ...baseEnv(), HOME: box.home, ...schema("v2-type").env },
        }),
      );

    await t.step("warn: the event carries the report; its text is the CLI's warning", async () => {
      const warnings: string[] = [];
      {
        await using conn = await drifted({
          onDrift: (drift) => void warnings.push(driftWarning(drift)),
        });
        assert.equal(conn.drift?.status, "changed");
        assert.equal(conn.drift?.counts.breaking, 1);
        const result = await call(conn, "echo", { text: "hi" });
        assert.equal(result.isError, undefined);
      }
      assert.equal(warnings.length, 1);
      const cli = await box.run(["cat", "@fx/echo?text=hi"], schema("v2-type"));
      assert.equal(cli.code, 0, cli.stderr);
      assert.equal(cli.stderr, `${warnings[0]}\n`);
      assert.match(warnings[0], /^jn: warning: the MCP server schema of @fx has changed/);
    });

    await edit(
      join(dir, "_meta.json"),
      (text) => text.replace(`"schema_validation": "warn"`, `"schema_validation": "error"`),
    );
    await t.step(
      "error: the report, then DriftError; the CLI prints both and exits 3",
      async () => {
        const reports: string[] = [];
        let thrown: unknown;
        try {
          await drifted({ onDrift: (drift) => void reports.push(driftWarning(drift)) });
        } catch (caught) {
          thrown = caught;
        }
        assert.ok(thrown instanceof DriftError, String(thrown));
        assert.equal(reports.length, 1);
        const cli = await box.run(["cat", "@fx/echo?text=hi"], schema("v2-type"));
        assert.deepEqual([cli.code, cli.stdout], [3, ""]);
        // The report ends with a blank line before the error, as the CLI prints it.
        assert.match(reports[0], /^Changes detected:\n[^]*\nCurrent hash: \w{32}\n$/);
        assert.equal(cli.stderr, `${reports[0]}jn: ${thrown.message}\nhint: ${thrown.hint}\n`);
      },
    );
  } finally {
    await box.dispose();
  }
});

Deno.test("put() calls a tool once per record of an async iterable, records out in order", async () => {
  const box = await sandbox();
  try {
    await box.write(join(box.user, "fx", "_meta.json"), fixtureMeta());
    await using conn = await open("@fx", options(box.project, box.home));
    const out = await Array.fromAsync(put(conn, "echo", records(), { concurrency: 2 }));
    assert.deepEqual(out.map((record) => [record.input, record.type, record.kind]), [
      [1, "tool_result", undefined],
      [2, "error", "invalid_arguments"],
      [3, "error", "not_object"],
      [4, "tool_result", undefined],
    ]);
    assert.deepEqual(JSON.parse(String(out[3].text)), { text: "d" });
  } finally {
    await box.dispose();
  }
});

/** Input records as a program may produce them: one at a time, some of them bad. */
async function* records(): AsyncGenerator<unknown> {
  yield { text: "a" };
  yield { text: 5 };
  yield "not an object";
  yield { text: "d", _note: "not sent" };
}
