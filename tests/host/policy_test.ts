/**
 * What `jn host add|remove` refuses, and the program it writes: a project
 * profile only into a project file and only once trusted; an entry of the
 * same name that is not jn's only with `--force`; a symlink out of the
 * host's place, a dangling one, a FIFO, a file that does not parse (each
 * left as it was); a host or profile named wrong. The entry runs the `jn`
 * found on PATH when there is one, and a profile's variables are named
 * (never their values), not written.
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { parseJsonc } from "../../lib/profile/load.ts";
import { FIXTURES } from "../helpers.ts";
import { hostBox, PLACES } from "./support.ts";

const CURSOR = PLACES.cursor.user[0];

async function entryOf(file: string, key: string): Promise<unknown> {
  const value = parseJsonc(await Deno.readTextFile(file), file).value as {
    mcpServers: Record<string, unknown>;
  };
  return value.mcpServers[key];
}

async function writeProfile(dir: string, meta: Record<string, unknown>): Promise<void> {
  await Deno.mkdir(dir, { recursive: true });
  await Deno.writeTextFile(join(dir, "_meta.json"), JSON.stringify(meta));
}

Deno.test("jn host add: a project profile goes only into the project's file, once trusted", async () => {
  const box = await hostBox();
  try {
    await writeProfile(join(box.project, ".jn", "profiles", "mcp", "proj"), {
      command: "node",
      args: [`${FIXTURES}/servers/fixture.mjs`],
    });
    const user = await box.run(["host", "add", "cursor", "@proj"]);
    assert.equal(user.code, 3);
    assert.match(
      user.stderr,
      /^jn: @proj is a project profile: a user-wide entry runs jn serve from any directory, where @proj is not found\nhint: add --project to write .*\/\.cursor\/mcp\.json instead\n$/,
    );
    const untrusted = await box.run(["host", "add", "cursor", "@proj", "--project"]);
    assert.equal(untrusted.code, 3);
    assert.match(untrusted.stderr, /^jn: Project profile "@proj" is not trusted to launch/);
    assert.match(untrusted.stderr, /jn profile trust @proj/);
    await assert.rejects(Deno.stat(box.at(PLACES.cursor.project[0])), Deno.errors.NotFound);
    assert.equal((await box.run(["profile", "trust", "@proj"])).code, 0);
    const trusted = await box.run(["host", "add", "cursor", "@proj", "--project"]);
    assert.equal(trusted.code, 0, trusted.stderr);
  } finally {
    await box.dispose();
  }
});

Deno.test("jn host add: an entry of that name that is not jn's is replaced only with --force", async () => {
  const box = await hostBox();
  try {
    const file = box.at(CURSOR);
    const original = await Deno.readTextFile(file);
    const refused = await box.run(["host", "add", "cursor", "@demo", "--name", "linear"]);
    assert.equal(refused.code, 3);
    assert.match(
      refused.stderr,
      /^jn: Cursor \(user\) already has an entry "linear" that does not run jn: it runs "npx"\nhint: --force replaces it/,
    );
    assert.equal(await Deno.readTextFile(file), original);
    const forced = await box.run(["host", "add", "cursor", "@demo", "--name", "linear", "--force"]);
    assert.equal(forced.code, 0, forced.stderr);
    assert.match(forced.stderr, /^jn: updated "linear" in Cursor \(user\)/);
    const entry = await entryOf(file, "linear") as { args: string[] };
    assert.deepEqual(entry.args.slice(-2), ["serve", "@demo"]);
    assert.ok(await entryOf(file, "context7"), "the other entry stays");
    const removed = await box.run(["host", "remove", "cursor", "@demo", "--name", "context7"]);
    assert.equal(removed.code, 3, "remove takes out only jn's entries");
    assert.match(removed.stderr, /^jn: The entry "context7" of Cursor \(user\) does not run jn/);
  } finally {
    await box.dispose();
  }
});

Deno.test("jn host add: a symlink is written through only inside the host's place", async (t) => {
  const box = await hostBox();
  try {
    const file = box.at(CURSOR);
    const original = await Deno.readTextFile(file);
    await t.step("a dotfile symlink in HOME: written through, still a link", async () => {
      const dotfile = join(box.home, "dotfiles", "cursor-mcp.json");
      await Deno.mkdir(join(box.home, "dotfiles"));
      await Deno.rename(file, dotfile);
      await Deno.symlink(dotfile, file);
      const result = await box.run(["host", "add", "cursor", "@demo"]);
      assert.equal(result.code, 0, result.stderr);
      assert.ok((await Deno.lstat(file)).isSymlink);
      assert.ok(await entryOf(dotfile, "demo"));
      assert.match(result.stderr, /the file before: .*\/dotfiles\/cursor-mcp\.json\.jn-backup-/);
      await Deno.remove(file);
    });
    await t.step("a symlink out of HOME: refused, its target untouched", async () => {
      const outside = join(box.root, "elsewhere.json");
      await Deno.writeTextFile(outside, original);
      await Deno.symlink(outside, file);
      const result = await box.run(["host", "add", "cursor", "@demo"]);
      assert.equal(result.code, 3);
      assert.match(
        result.stderr,
        /^jn: Refusing to write .*\.cursor\/mcp\.json: it resolves to .*\/elsewhere\.json, outside /,
      );
      assert.equal(await Deno.readTextFile(outside), original);
      await Deno.remove(file);
    });
    await t.step("a project's file linked to one of the user's: refused", async () => {
      const bashrc = join(box.home, ".bashrc");
      await Deno.writeTextFile(bashrc, "{}\n");
      await Deno.mkdir(join(box.project, ".cursor"));
      await Deno.symlink(bashrc, box.at(PLACES.cursor.project[0]));
      const result = await box.run(["host", "add", "cursor", "@demo", "--project"]);
      assert.equal(result.code, 3);
      assert.match(
        result.stderr,
        /^jn: Refusing to write .*: it resolves to .*\/home\/\.bashrc, outside/,
      );
      assert.equal(await Deno.readTextFile(bashrc), "{}\n");
    });
    await t.step("a symlink to nothing: refused", async () => {
      await Deno.symlink(join(box.home, "gone.json"), file);
      const result = await box.run(["host", "add", "cursor", "@demo"]);
      assert.equal(result.code, 3);
      assert.match(result.stderr, /it is a symlink to nothing/);
      await Deno.remove(file);
    });
    await t.step("a FIFO: refused unread", async () => {
      const mkfifo = await new Deno.Command("mkfifo", { args: [file] }).output();
      assert.ok(mkfifo.success);
      const result = await box.run(["host", "add", "cursor", "@demo"]);
      assert.equal(result.code, 3);
      assert.match(result.stderr, /it is not a regular file/);
      await Deno.remove(file);
    });
    await t.step("a file that does not parse: refused, untouched", async () => {
      await Deno.writeTextFile(file, '{"mcpServers": {"a": ');
      const result = await box.run(["host", "add", "cursor", "@demo"]);
      assert.equal(result.code, 3);
      assert.equal(await Deno.readTextFile(file), '{"mcpServers": {"a": ');
    });
  } finally {
    await box.dispose();
  }
});

Deno.test("jn host add: the entry runs the jn found on PATH, by its absolute path", async () => {
  const box = await hostBox();
  try {
    const jn = join(box.bin, "jn");
    await Deno.writeTextFile(jn, "#!/bin/sh\nexit 0\n", { mode: 0o755 });
    const result = await box.run(["host", "add", "windsurf", "@demo"]);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(await entryOf(box.at(PLACES.windsurf.user[0]), "demo"), {
      command: jn,
      args: ["serve", "@demo"],
    });
    const listed = JSON.parse((await box.run(["host", "list"])).stdout);
    assert.equal(listed.current, true);
  } finally {
    await box.dispose();
  }
});

Deno.test("jn host add: a profile's variables are named for the host to pass, their values never written", async () => {
  const box = await hostBox();
  try {
    await writeProfile(join(box.home, ".local", "jn", "profiles", "mcp", "keyed"), {
      command: "node",
      args: [`${FIXTURES}/servers/fixture.mjs`],
      env: { API_KEY: "${MY_API_KEY}" },
    });
    const secret = "sk-very-secret-value-42";
    const result = await box.run(["host", "add", "cursor", "@keyed"], { MY_API_KEY: secret });
    assert.equal(result.code, 0, result.stderr);
    assert.match(
      result.stderr,
      /^jn: @keyed reads \$MY_API_KEY: cursor starts jn with its own environment/m,
    );
    const text = await Deno.readTextFile(box.at(CURSOR));
    assert.ok(!text.includes(secret) && !(result.stdout + result.stderr).includes(secret));
    assert.deepEqual(Object.keys(await entryOf(box.at(CURSOR), "keyed") as object), [
      "command",
      "args",
    ]);
  } finally {
    await box.dispose();
  }
});

Deno.test("jn host add: a host, a profile or a source named wrong is a usage error", async () => {
  const box = await hostBox();
  try {
    const host = await box.run(["host", "add", "cursr", "@demo"]);
    assert.equal(host.code, 2);
    assert.match(host.stderr, /cursor/);
    for (const source of ["demo", "@demo/add", "mcp+node://./server.js"]) {
      const wrong = await box.run(["host", "add", "cursor", source]);
      assert.equal(wrong.code, 2, wrong.stderr);
      assert.match(wrong.stderr, /^jn: jn host add takes a profile \(@name\), not /);
    }
    const missing = await box.run(["host", "add", "cursor", "@nope"]);
    assert.equal(missing.code, 3);
    assert.match(missing.stderr, /^jn: Profile "@nope" not found/);
  } finally {
    await box.dispose();
  }
});
