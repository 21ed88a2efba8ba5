/**
 * Start-up loads what the command line needs: `--version` and help load no
 * command module, a command loads its own module only, help and version text
 * is never cut off by the exit; `profile
 * list` of the bundled profiles alone loads no JSONC parser and no SHA-256
 * (their summaries are precomputed), and loads them once a directory on disk
 * has a profile.
 */

import assert from "node:assert/strict";
import { VERSION } from "../../lib/version.ts";
import { baseEnv, loadedModules, ROOT, runJn } from "../helpers.ts";
import { sandbox } from "../profile/sandbox.ts";

Deno.test("only the command an argv names is loaded", async (t) => {
  const box = await sandbox();
  const env = { ...baseEnv(), HOME: box.home };
  const commands = async (args: string[]) => {
    const out = await loadedModules(args, { cwd: box.project, env });
    assert.equal(out.code, 0, out.stdout);
    return out.loaded.filter((url) => url.includes("/lib/cli/commands/"))
      .map((url) => url.slice(url.indexOf("/lib/cli/commands/") + 18));
  };
  await t.step("--version and --help load no command module", async () => {
    assert.deepEqual(await commands(["--version"]), []);
    assert.deepEqual(await commands(["--help"]), []);
    assert.deepEqual(await commands(["profile", "list", "--help"]), []);
  });
  await t.step("a command loads its own module, and no other", async () => {
    assert.deepEqual(await commands(["profile", "list"]), ["profile_list.ts"]);
    assert.deepEqual(await commands(["--quiet", "completions", "bash"]), ["completions.ts"]);
    assert.deepEqual(await commands(["help", "profile", "list"]), ["help.ts"]);
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
  await t.step("--version after a global flag is still the version", async () => {
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
    assert.ok(urls.includes(`file://${ROOT}/lib/client/profile_list.ts`), "the log lists modules");
    return {
      stdout: out.stdout,
      parser: urls.filter((url) => /\/profile\/(jsonc|load|fields)\.ts$/.test(url)),
    };
  };
  try {
    await t.step("the bundled profiles alone: no parser", async () => {
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
      assert.deepEqual(names, ["fields.ts", "jsonc.ts", "load.ts"]);
    });
  } finally {
    await box.dispose();
  }
});
