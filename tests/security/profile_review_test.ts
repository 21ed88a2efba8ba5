/**
 * What a user reviews before `jn profile trust` is what shapes the launch
 * (issue 23): the trust report shows every such field — `env` (values as
 * written: a `${VAR}` is shown as the reference, never its value),
 * `env_passthrough`, `sandbox` — and warns about variables that load code
 * into a process; `profile info` warns about them too. A profile's relative
 * `sampling_command` runs the file trust covered (the profile directory's),
 * not a file of the directory jn runs in.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { FIXTURES, parseNdjson } from "../helpers.ts";
import { sandbox } from "../profile/sandbox.ts";

const ASKER = `${FIXTURES}/servers/asker.mjs`;

Deno.test("the trust report shows env, env_passthrough and sandbox, and warns about code-loading variables", async () => {
  const box = await sandbox({ here: true });
  try {
    await box.write(
      `${box.projectProfiles}/loader/_meta.json`,
      JSON.stringify({
        command: "node",
        args: ["server.mjs"],
        cwd: ".",
        env: {
          LD_PRELOAD: "./hook.so",
          NODE_OPTIONS: "--require ./x.cjs",
          API_TOKEN: "${JN_TEST_TOKEN}",
          PLAIN: "visible",
        },
        env_passthrough: ["GITHUB_TOKEN"],
        sandbox: { network: true, write: ["./out"] },
      }),
    );
    const trust = await box.run(["profile", "trust", "@loader"], {
      env: { JN_TEST_TOKEN: "tok-s3cr3t-value" },
    });
    assert.equal(trust.code, 0, trust.stderr);
    const report = trust.stderr;
    assert.equal(report.includes("tok-s3cr3t-value"), false, "a secret's value was printed");
    assert.match(report, /^ {2}env: +API_TOKEN=\$\{JN_TEST_TOKEN\}$/m);
    assert.match(report, /^ {2}env: +PLAIN=visible$/m);
    assert.match(report, /^ {2}env: +LD_PRELOAD=\.\/hook\.so$/m);
    assert.match(report, /^ {2}warning: +LD_PRELOAD .*load/m);
    assert.match(report, /^ {2}warning: +NODE_OPTIONS .*/m);
    assert.doesNotMatch(report, /warning: +PLAIN/);
    assert.match(report, /^ {2}passes: +GITHUB_TOKEN\b/m);
    assert.match(report, /^ {2}sandbox: +.*network.*write: \.\/out/m);

    await box.write(
      `${box.projectProfiles}/open/_meta.json`,
      JSON.stringify({ command: "node", args: ["server.mjs"] }),
    );
    const open = await box.run(["profile", "trust", "@open"]);
    assert.equal(open.code, 0, open.stderr);
    assert.match(open.stderr, /^ {2}sandbox: +none\b/m);
  } finally {
    await box.dispose();
  }
});

Deno.test("profile info warns about a code-loading variable in env", async () => {
  const box = await sandbox({ here: true });
  try {
    await box.write(
      `${box.user}/hooked/_meta.json`,
      JSON.stringify({
        command: "node",
        args: ["server.mjs"],
        env: { LD_PRELOAD: "/opt/hook.so", PLAIN: "x" },
        sandbox: true,
      }),
    );
    const info = await box.run(["profile", "info", "@hooked"]);
    assert.equal(info.code, 0, info.stderr);
    assert.match(info.stdout, /^ {2}warning: +LD_PRELOAD .*load/m);
    assert.doesNotMatch(info.stdout, /warning: +PLAIN/);
    assert.match(info.stdout, /^ {2}sandbox: +/m);
    const json = await box.run(["profile", "info", "@hooked", "--format", "json"]);
    assert.equal(json.code, 0, json.stderr);
    const parsed = JSON.parse(json.stdout);
    assert.deepEqual(parsed.warnings.map((w: { name: string }) => w.name), ["LD_PRELOAD"]);
  } finally {
    await box.dispose();
  }
});

Deno.test("a relative sampling_command runs the profile directory's file, which trust covers", async () => {
  const box = await sandbox({ here: true });
  try {
    const dir = `${box.projectProfiles}/asks`;
    await box.write(
      `${dir}/_meta.json`,
      JSON.stringify({
        command: "node",
        args: [ASKER],
        cwd: ".",
        sampling_command: "./llm.sh",
      }),
    );
    const script = (what: string) => `#!/bin/sh\ncat > /dev/null\necho '${what}'\n`;
    await box.write(`${dir}/llm.sh`, script("the profile llm.sh"));
    await Deno.chmod(`${dir}/llm.sh`, 0o755);
    // The repository root (where jn runs): not covered by trust, and free to change after it.
    await box.write(join(box.project, "llm.sh"), script("the repository root llm.sh"));
    await Deno.chmod(join(box.project, "llm.sh"), 0o755);
    const trust = await box.run(["profile", "trust", "@asks"]);
    assert.equal(trust.code, 0, trust.stderr);
    const run = await box.run(["cat", "@asks?tool=ask_sample"]);
    assert.equal(run.code, 0, run.stderr);
    const [record] = parseNdjson(run.stdout) as { text: string }[];
    const answer = JSON.parse(record.text).result?.content.text;
    assert.equal(answer, "the profile llm.sh");
    const real = await Deno.realPath(dir);
    assert.match(
      trust.stderr,
      new RegExp(`^ {2}samples: +sh -c "\\./llm\\.sh" in ${real.replaceAll(".", "\\.")}\\b`, "m"),
    );
  } finally {
    await box.dispose();
  }
});

Deno.test("the trust report says where a symlink of the profile leads, and when trust does not cover it", async () => {
  const box = await sandbox({ here: true });
  try {
    const dir = `${box.projectProfiles}/linked`;
    await box.write(
      `${dir}/_meta.json`,
      JSON.stringify({ command: "node", args: [ASKER], sampling_command: "./llm.sh" }),
    );
    await box.write(join(box.project, "llm.sh"), "#!/bin/sh\necho root\n");
    await box.write(`${dir}/lib/helper.sh`, "#!/bin/sh\n");
    // Trust covers the link's text: what it leads to outside can change after trust.
    await Deno.symlink("../../../../llm.sh", `${dir}/llm.sh`);
    await Deno.symlink("lib/helper.sh", `${dir}/helper.sh`);
    const trust = await box.run(["profile", "trust", "@linked"]);
    assert.equal(trust.code, 0, trust.stderr);
    assert.match(
      trust.stderr,
      /^ {2}files: +_meta\.json, helper\.sh -> lib\/helper\.sh, lib, lib\/helper\.sh, llm\.sh -> \.\.\/\.\.\/\.\.\/\.\.\/llm\.sh \(outside the profile's directory, not covered by trust\)$/m,
    );
  } finally {
    await box.dispose();
  }
});
