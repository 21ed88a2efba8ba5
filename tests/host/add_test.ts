/**
 * `jn host add|list|remove` on copies of real hosts' config files, one host
 * at a time: the entry that runs `jn serve @profile` lands where the host
 * reads it, in the host's shape; every other line (entries, settings,
 * comments, trailing commas) is kept; the file is backed up first (0600);
 * a second run changes nothing; `--dry-run` prints the entry and writes
 * nothing; `list` finds it; `remove` takes it out and nothing else. No
 * secret of the files' other entries is ever printed.
 *
 * @module
 */

import assert from "node:assert/strict";
import { parseJsonc } from "../../lib/profile/load.ts";
import { parseNdjson } from "../helpers.ts";
import { hostBox, keepsLines, PLACES, sourceArgv } from "./support.ts";

/** The secrets the fixtures hold in other entries. */
const SECRETS = [
  "ghp_FixtureSecretValue",
  "sntrys_FixtureSecretValue",
  "BSAFixtureSecretValue",
];

const CASES = [
  { host: "claude", place: PLACES.claude.user[0], path: ["mcpServers", "demo"], typed: false },
  {
    host: "claude-code",
    place: PLACES["claude-code"].user[0],
    path: ["mcpServers", "demo"],
    typed: true,
  },
  { host: "cursor", place: PLACES.cursor.user[0], path: ["mcpServers", "demo"], typed: false },
  { host: "vscode", place: PLACES.vscode.user[0], path: ["servers", "demo"], typed: true },
  { host: "windsurf", place: PLACES.windsurf.user[0], path: ["mcpServers", "demo"], typed: false },
  { host: "zed", place: PLACES.zed.user[0], path: ["context_servers", "demo"], typed: false },
] as const;

function at(value: unknown, path: readonly string[]): unknown {
  return path.reduce<unknown>((v, key) => (v as Record<string, unknown> | undefined)?.[key], value);
}

async function backups(file: string): Promise<string[]> {
  const dir = file.slice(0, file.lastIndexOf("/"));
  const base = file.slice(file.lastIndexOf("/") + 1);
  const found: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    if (entry.name.startsWith(`${base}.jn-backup-`)) found.push(`${dir}/${entry.name}`);
  }
  return found;
}

for (const { host, place, path, typed } of CASES) {
  Deno.test(`jn host add|list|remove ${host}: ${place}, every other line kept`, async () => {
    const box = await hostBox();
    try {
      const file = box.at(place);
      const original = await Deno.readTextFile(file);
      const expected = { ...(typed ? { type: "stdio" } : {}), ...sourceArgv("@demo") };

      const dry = await box.run(["host", "add", host, "@demo", "--dry-run"]);
      assert.equal(dry.code, 0, dry.stderr);
      assert.deepEqual(at(JSON.parse(dry.stdout), path), expected);
      assert.match(dry.stderr, /^jn: would add "demo" in .*; nothing written\n$/);
      assert.equal(await Deno.readTextFile(file), original, "--dry-run writes nothing");
      assert.deepEqual(await backups(file), []);

      const added = await box.run(["host", "add", host, "@demo"]);
      assert.equal(added.code, 0, added.stderr);
      assert.equal(added.stdout, "");
      const text = await Deno.readTextFile(file);
      assert.deepEqual(at(parseJsonc(text, file).value, path), expected);
      assert.equal(keepsLines(original, text), undefined, `a line was lost:\n${text}`);
      const [backup, ...more] = await backups(file);
      assert.deepEqual(more, []);
      assert.equal(await Deno.readTextFile(backup), original, "the backup is the file before");
      assert.equal((await Deno.stat(backup)).mode! & 0o777, 0o600);
      assert.match(
        added.stderr,
        /^jn: added "demo" in .*; the file before: .*jn-backup-\d{8}T\d{6}Z; restart the host to load it\n$/,
      );

      const again = await box.run(["host", "add", host, "@demo"]);
      assert.equal(again.code, 0, again.stderr);
      assert.match(again.stderr, /already has "demo": nothing to change/);
      assert.equal(await Deno.readTextFile(file), text, "a second run changes nothing");
      assert.equal((await backups(file)).length, 1, "and backs nothing up");

      const listed = await box.run(["host", "list"]);
      assert.equal(listed.code, 0, listed.stderr);
      const mine = parseNdjson(listed.stdout) as Record<string, unknown>[];
      assert.deepEqual(mine.map((e) => [e.host, e.scope, e.name, e.sources, e.current, e.file]), [
        [host, "user", "demo", ["@demo"], true, file],
      ]);

      const removed = await box.run(["host", "remove", host, "@demo"]);
      assert.equal(removed.code, 0, removed.stderr);
      assert.match(removed.stderr, /^jn: removed "demo" from /);
      const after = await Deno.readTextFile(file);
      assert.equal(at(parseJsonc(after, file).value, path), undefined);
      assert.equal(after, original, "add then remove gives the file back as it was");
      const none = await box.run(["host", "list"]);
      assert.equal(none.stdout, "");
      const nothing = await box.run(["host", "remove", host, "@demo"]);
      assert.equal(nothing.code, 0);
      assert.match(nothing.stderr, /nothing to remove/);

      for (const output of [dry, added, again, listed, removed]) {
        for (const secret of SECRETS) {
          assert.ok(!(output.stdout + output.stderr).includes(secret), "a secret was printed");
        }
      }
    } finally {
      await box.dispose();
    }
  });
}

Deno.test("jn host add --project: the host's project file, created 0600 when missing", async () => {
  const box = await hostBox();
  try {
    for (
      const [host, place, path] of [
        ["claude-code", PLACES["claude-code"].project[0], ["mcpServers", "demo"]],
        ["cursor", PLACES.cursor.project[0], ["mcpServers", "demo"]],
        ["vscode", PLACES.vscode.project[0], ["servers", "demo"]],
        ["zed", PLACES.zed.project[0], ["context_servers", "demo"]],
      ] as const
    ) {
      const result = await box.run(["host", "add", host, "@demo", "--project"]);
      assert.equal(result.code, 0, result.stderr);
      const file = box.at(place);
      const value = parseJsonc(await Deno.readTextFile(file), file).value;
      assert.deepEqual((at(value, path) as { args: string[] }).args.slice(-2), ["serve", "@demo"]);
      if (host !== "claude-code") {
        assert.equal((await Deno.stat(file)).mode! & 0o777, 0o600, `${file} was new`);
      }
    }
    const listed = parseNdjson((await box.run(["host", "list"])).stdout) as { scope: string }[];
    assert.deepEqual(listed.map((e) => e.scope), ["project", "project", "project", "project"]);
    for (const host of ["claude", "windsurf"]) {
      const refused = await box.run(["host", "add", host, "@demo", "--project"]);
      assert.equal(refused.code, 2);
      assert.match(refused.stderr, /^jn: .* has no project config\nhint: leave out --project\n$/);
    }
  } finally {
    await box.dispose();
  }
});

Deno.test("jn host list: a jn entry found in every place a host reads (VS Code's settings.json too)", async () => {
  const box = await hostBox();
  try {
    const settings = box.at(PLACES.vscode.settings[0]);
    const text = await Deno.readTextFile(settings);
    await Deno.writeTextFile(
      settings,
      text.replace(
        '"servers": {',
        '"servers": {\n      "old-jn": {"command": "/opt/jn/bin/jn", "args": ["serve", "@demo", "--sandbox"]},',
      ),
    );
    const listed = await box.run(["host", "list", "--format", "text"]);
    assert.equal(listed.code, 0, listed.stderr);
    assert.equal(
      listed.stdout,
      `vscode      user    old-jn  serves @demo (another jn)  ${settings}\n`,
    );
  } finally {
    await box.dispose();
  }
});
