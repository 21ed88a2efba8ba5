/**
 * The start-up shortcuts keep the CLI's behaviour: `--version` answers
 * without the CLI, help and version text is never cut off by the exit, and
 * only the command an argv names is loaded (all of them otherwise); `profile
 * list` of the bundled profiles alone loads no JSONC parser and no SHA-256
 * (their summaries are precomputed), and loads them once a directory on disk
 * has a profile.
 */

import assert from "node:assert/strict";
import { commandName } from "../../lib/cli/commands/registry.ts";
import { VERSION } from "../../lib/version.ts";
import { baseEnv, loadedModules, ROOT, runJn } from "../helpers.ts";
import { sandbox } from "../profile/sandbox.ts";

Deno.test("commandName() finds the command an argv runs", async (t) => {
  await t.step("the first word, after global flags", () => {
    assert.equal(commandName(["cat", "mcp+uvx://x"]), "cat");
    assert.equal(commandName(["--debug", "-q", "head", "-n", "3", "x"]), "head");
    assert.equal(commandName(["profile", "list"]), "profile");
  });
  await t.step("help X names X; bare help, flags first or nothing name none", () => {
    assert.equal(commandName(["help", "put"]), "put");
    assert.equal(commandName(["help"]), undefined);
    assert.equal(commandName(["--help"]), undefined);
    assert.equal(commandName(["--timeout", "5s", "cat"]), undefined);
    assert.equal(commandName([]), undefined);
  });
});

Deno.test("version and help text always reaches stdout in full", async (t) => {
  for (const flag of ["--version", "-V"]) {
    await t.step(`jn ${flag} prints the version, every time`, async () => {
      const runs = await Promise.all([1, 2, 3, 4].map(() => runJn([flag])));
      for (const run of runs) {
        assert.equal(run.code, 0);
        assert.equal(run.stdout, `${VERSION}\n`);
        assert.equal(run.stderr, "");
      }
    });
  }
  await t.step("jn --help lists every command, every time", async () => {
    const runs = await Promise.all([1, 2, 3].map(() => runJn(["--help"])));
    for (const run of runs) {
      assert.equal(run.code, 0);
      for (const name of ["inspect", "cat", "head", "tail", "put", "filter", "mcp", "profile"]) {
        assert.match(run.stdout, new RegExp(`^  ${name}\\b`, "m"));
      }
      assert.match(run.stdout, /Exit codes:/);
    }
  });
  await t.step("jn help cat and jn cat --help show that command's help", async () => {
    for (const args of [["help", "cat"], ["cat", "--help"]]) {
      const run = await runJn(args);
      assert.equal(run.code, 0);
      assert.match(run.stdout, /^Usage: jn cat \[options\] <source>/);
    }
  });
  await t.step("a mistyped command still gets a suggestion", async () => {
    const run = await runJn(["catt", "x"]);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /did you mean 'jn cat'\?/);
  });
  await t.step("--version with other arguments goes through the CLI", async () => {
    const run = await runJn(["--debug", "--version"]);
    assert.equal(run.code, 0);
    assert.equal(run.stdout, `${VERSION}\n`);
  });
});

Deno.test("profile list parses only the profiles on disk", async (t) => {
  const box = await sandbox();
  /** The modules of jn's profile code a `profile list` in the sandbox loads. */
  const loaded = async () => {
    const out = await loadedModules(["profile", "list"], {
      cwd: box.project,
      env: { ...baseEnv(), HOME: box.home },
    });
    assert.equal(out.code, 0);
    const urls = out.loaded;
    assert.ok(urls.includes(`file://${ROOT}/lib/profile/listing.ts`), "the log lists modules");
    return {
      stdout: out.stdout,
      parser: urls.filter((url) => /\/profile\/(jsonc|load|fields|sha256)\.ts$/.test(url)),
    };
  };
  try {
    await t.step("the bundled profiles alone: no parser, no SHA-256", async () => {
      const run = await loaded();
      assert.match(run.stdout, /^@demo +bundled/m);
      assert.deepEqual(run.parser, []);
    });
    await t.step("a user profile is parsed (and a project one read whole, hashed)", async () => {
      await box.write(`${box.user}/mine/_meta.json`, `{"command": "x", "description": "mine"}`);
      await box.write(`${box.projectProfiles}/mine/tool.json`, `{}`);
      const run = await loaded();
      assert.match(run.stdout, /^@mine +user .*\n +mine$/m);
      const names = run.parser.map((url) => url.slice(url.lastIndexOf("/") + 1)).sort();
      assert.deepEqual(names, ["fields.ts", "jsonc.ts", "load.ts", "sha256.ts"]);
    });
  } finally {
    await box.dispose();
  }
});
