/**
 * `open(uri, { cwd })` in a program whose own directory is elsewhere: a
 * naked stdio server's relative path resolves against `cwd` and the server
 * starts there — as `jn` does in the user's directory — not in the
 * program's working directory. Also for a profile without `cwd`, and under
 * the sandbox.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { call, open, type OpenOptions } from "../../mod.ts";
import { baseEnv, FIXTURES, tempDir } from "../helpers.ts";
import { requireBwrap } from "../sandbox/bwrap_support.ts";

const NO_BWRAP = await requireBwrap("tests/lib/open_cwd_test.ts");

/** A directory holding a copy of the fixture servers, and its real path. */
async function serverDir(): Promise<string> {
  const dir = await Deno.realPath(await tempDir("jn-open-cwd-"));
  for await (const entry of Deno.readDir(`${FIXTURES}/servers`)) {
    if (entry.isFile) {
      await Deno.copyFile(`${FIXTURES}/servers/${entry.name}`, join(dir, entry.name));
    }
  }
  return dir;
}

/** The `cwd` tool's answer: the server's working directory. */
async function serverCwd(source: string, options: OpenOptions): Promise<string> {
  const conn = await open(source, options);
  try {
    const result = await call(conn, "cwd", {});
    return String(result.content[0].text);
  } finally {
    await conn.close();
  }
}

Deno.test("open(mcp+node://./server.mjs, { cwd }): resolved against cwd, started there", async (t) => {
  const dir = await serverDir();
  assert.notEqual(Deno.cwd(), dir);
  const options: OpenOptions = { cwd: dir, env: { ...baseEnv(), HOME: dir } };
  try {
    await t.step("a naked URI", async () => {
      assert.equal(await serverCwd("mcp+node://./fixture.mjs", options), dir);
    });
    await t.step("a profile without cwd", async () => {
      const home = await tempDir("jn-open-cwd-home-");
      try {
        const meta = join(home, ".local/jn/profiles/mcp/here/_meta.json");
        await Deno.mkdir(join(meta, ".."), { recursive: true });
        await Deno.writeTextFile(
          meta,
          JSON.stringify({ command: "node", args: [join(dir, "fixture.mjs")] }),
        );
        const env = { ...baseEnv(), HOME: home };
        assert.equal(await serverCwd("@here", { cwd: dir, env }), dir);
      } finally {
        await Deno.remove(home, { recursive: true });
      }
    });
    await t.step("a cwd that does not exist is a launch error saying so", async () => {
      const missing = join(dir, "gone");
      await assert.rejects(
        () => open(`mcp+node://${join(dir, "fixture.mjs")}`, { ...options, cwd: missing }),
        (error: Error) => {
          assert.equal(error.name, "LaunchError");
          assert.match(error.message, /its working directory ".*\/gone" is not a directory/);
          return true;
        },
      );
    });
    await t.step({
      name: "sandboxed",
      ignore: NO_BWRAP,
      fn: async () => {
        const sandbox = { network: false, read: [dir], write: [] };
        assert.equal(await serverCwd("mcp+node://./fixture.mjs", { ...options, sandbox }), dir);
      },
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
