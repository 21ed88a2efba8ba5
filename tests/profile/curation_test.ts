/**
 * `allow_tools`/`deny_tools` in `_meta.json`: validated when the profile is
 * read (the file and the field named, exit 3), covered by trust (a project
 * profile whose curation changed asks for trust again, naming the field),
 * and shown by `profile info` (the lists, the tools they hide).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ConfigError } from "../../mod.ts";
import { loadProfile } from "../../mod/profile.ts";
import { fixtureMeta, sandbox } from "./sandbox.ts";

Deno.test("allow_tools/deny_tools: a malformed list is an error naming the file, the field and why", async (t) => {
  const box = await sandbox({ here: true });
  const file = join(box.user, "cur", "_meta.json");
  const load = () => loadProfile("cur", { cwd: box.project, env: { HOME: box.home } });
  try {
    const cases: [unknown, RegExp][] = [
      ["search*", /:\d+:\d+: "allow_tools" must be an array of globs$/],
      [["echo", 7], /:\d+:\d+: "allow_tools\[1\]" must be a string, got 7$/],
      [["ok", ""], /: "allow_tools\[1\]" is not a valid glob: it is empty$/],
      [
        ["[ab]*"],
        /: "allow_tools\[0\]" is not a valid glob: "\[" is reserved \(write \\\[ to match it\)$/,
      ],
      [["a\\"], /: "allow_tools\[0\]" is not a valid glob: it ends with a lone \\/],
      [["${PREFIX}*"], /: "allow_tools\[0\]" is not a valid glob: a glob takes no \$\{VAR\}/],
    ];
    for (const [value, message] of cases) {
      await t.step(JSON.stringify(value), async () => {
        await box.write(file, fixtureMeta({ allow_tools: value }));
        const error = await load().then(() => undefined, (e) => e);
        assert.ok(error instanceof ConfigError, String(error));
        assert.ok(error.message.startsWith(`Invalid profile ${file}:`), error.message);
        assert.match(error.message, message);
        assert.equal(error.path, file);
        assert.match(error.hint ?? "", /\* any run, \? one character/);
      });
    }
    await t.step("deny_tools is checked the same way; the CLI exits 3 with it", async () => {
      await box.write(file, fixtureMeta({ deny_tools: ["ok", { glob: "x" }] }));
      const result = await box.run(["cat", "@cur/echo?text=hi"]);
      assert.deepEqual([result.code, result.stdout], [3, ""]);
      assert.match(
        result.stderr,
        /^jn: Invalid profile .*\/cur\/_meta\.json:\d+:\d+: "deny_tools\[1\]" must be a string, got \{"glob":"x"\}\nhint: /,
      );
    });
    await t.step("valid lists load", async () => {
      await box.write(file, fixtureMeta({ allow_tools: ["e*", "what\\?"], deny_tools: [] }));
      assert.deepEqual((await load()).meta.allow_tools, ["e*", "what\\?"]);
    });
  } finally {
    await box.dispose();
  }
});

Deno.test("allow_tools/deny_tools are covered by trust: loosening them asks for trust again", async (t) => {
  const box = await sandbox({ here: true });
  const dir = `${box.projectProfiles}/proj`;
  const call = () => box.run(["cat", "@proj/echo?text=ok"]);
  try {
    await box.write(`${dir}/_meta.json`, fixtureMeta({ allow_tools: ["echo"] }));
    assert.equal((await box.run(["profile", "trust", "@proj"])).code, 0);
    assert.equal((await call()).code, 0);
    await t.step("a changed allow_tools is named", async () => {
      await box.write(`${dir}/_meta.json`, fixtureMeta({ allow_tools: ["*"] }));
      const result = await call();
      assert.deepEqual([result.code, result.stdout], [3, ""]);
      assert.match(
        result.stderr,
        /^jn: Project profile "@proj" changed since you trusted it: modified _meta\.json \(allow_tools\)\n/,
      );
    });
    await t.step("so is a new tool file (an alias the lists would offer)", async () => {
      await box.write(`${dir}/_meta.json`, fixtureMeta({ allow_tools: ["echo"] }));
      assert.equal((await call()).code, 0, "the trusted text again: trusted again");
      await box.write(`${dir}/echo.json`, `{"tool": "read_file"}`);
      const result = await call();
      assert.deepEqual([result.code, result.stdout], [3, ""]);
      assert.match(result.stderr, /changed since you trusted it: added echo\.json\n/);
    });
  } finally {
    await box.dispose();
  }
});

Deno.test("profile info shows the lists and names the profile tools they hide", async () => {
  const box = await sandbox({ here: true });
  try {
    const dir = join(box.user, "cur");
    await box.write(join(dir, "_meta.json"), fixtureMeta({ deny_tools: ["secret*"] }));
    await box.write(join(dir, "hello.json"), `{"tool": "echo", "defaults": {"text": "hi"}}`);
    await box.write(join(dir, "secret_env.json"), `{"tool": "env"}`);
    const text = await box.run(["profile", "info", "@cur"]);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /\n {2}deny: {7}"secret\*"\n/);
    assert.match(text.stdout, /\nTools \(1\)\n {2}hello → echo {2}\(user\)\n/);
    assert.match(text.stdout, /\n {2}hidden by allow_tools\/deny_tools: secret_env\n$/);
    const json = JSON.parse(
      (await box.run(["profile", "info", "@cur", "--format", "json"])).stdout,
    );
    assert.deepEqual(json.deny_tools, ["secret*"]);
    assert.deepEqual(json.tools.map((tool: { name: string }) => tool.name), ["hello"]);
    assert.deepEqual(json.hidden_tools, ["secret_env"]);
    // A copy of the profile keeps its curation.
    const copy = await box.run(["profile", "create", "copy", "--from", "@cur"]);
    assert.equal(copy.code, 0, copy.stderr);
    const meta = JSON.parse(await Deno.readTextFile(join(box.user, "copy", "_meta.json")));
    assert.deepEqual(meta.deny_tools, ["secret*"]);
  } finally {
    await box.dispose();
  }
});
