/**
 * Trust of project profiles, black-box: nothing of `.jn/profiles/mcp/`
 * launches a server or shapes a call before `jn profile trust`; trust covers
 * every file of the profile directory as written, at its real path; a change
 * anywhere, an older jn's record or a swapped symlink asks for trust again.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { parseNdjson } from "../helpers.ts";
import { FIXTURE, fixtureMeta, sandbox } from "./sandbox.ts";

const AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";

async function calls(log: string): Promise<string> {
  return await Deno.readTextFile(log).catch(() => "");
}

Deno.test("jn profile trust: a project profile launches only once trusted, and again after a change", async (t) => {
  const box = await sandbox({ here: true });
  const dir = `${box.projectProfiles}/proj`;
  const file = `${dir}/_meta.json`;
  const call = () => box.run(["cat", "@proj/echo?text=ok"]);
  try {
    await box.write(file, fixtureMeta({ env: { X: "${UNSET_FOR_NOW}" } }));
    await t.step(
      "untrusted comes before unset variables, and trust needs none of them",
      async () => {
        const result = await call();
        assert.match(result.stderr, /^jn: Project profile "@proj" is not trusted/);
        assert.equal((await box.run(["profile", "trust", "@proj"])).code, 0);
        assert.match((await call()).stderr, /^jn: Variable "UNSET_FOR_NOW" is not set/);
        assert.equal((await box.run(["profile", "untrust", "@proj"])).code, 0);
      },
    );
    await box.write(file, fixtureMeta());
    await t.step("untrusted: exit 3 with what to review and the command to run", async () => {
      const result = await call();
      assert.deepEqual([result.code, result.stdout], [3, ""]);
      assert.equal(
        result.stderr,
        `jn: Project profile "@proj" is not trusted to launch "node ${FIXTURE}"\nhint: review every file in ${dir}, then run: jn profile trust @proj\n`,
      );
    });
    await t.step("trust says on stderr what it trusts, then it runs", async () => {
      await box.write(`${dir}/greet.json`, `{"tool": "echo"}`);
      const trust = await box.run(["profile", "trust", "@proj"]);
      assert.deepEqual([trust.code, trust.stdout], [0, ""], trust.stderr);
      assert.equal(
        trust.stderr,
        `Trusting @proj: ${dir}\n  launches:  "node ${FIXTURE}"\n  in:        ${await Deno.realPath(
          box.project,
        )} (the current directory, not covered by trust)\n  sandbox:   none: the server runs with your permissions (unless you add --sandbox)\n  files:     _meta.json, greet.json\nTrusted @proj (${dir})\n`,
      );
      const result = await call();
      assert.deepEqual([result.code, result.stderr], [0, ""]);
    });
    await t.step("a changed _meta.json is named with its changed fields", async () => {
      await box.write(file, fixtureMeta({ description: "new" }, ["--slow", "1"]));
      const result = await call();
      assert.deepEqual([result.code, result.stdout], [3, ""]);
      assert.equal(
        result.stderr,
        `jn: Project profile "@proj" changed since you trusted it: modified _meta.json (args, description)\nhint: review the changes in ${dir}, then run: jn profile trust @proj\n`,
      );
    });
    await t.step(
      "any other file counts: added, removed, modified, in subdirectories too",
      async () => {
        await box.write(`${dir}/scripts/run.sh`, "#!/bin/sh\n");
        await Deno.remove(`${dir}/greet.json`);
        const result = await call();
        assert.equal(result.code, 3);
        assert.match(result.stderr, /removed greet\.json; added scripts; added scripts\/run\.sh/);
        const trust = await box.run(["profile", "trust", "@proj"]);
        assert.equal(trust.code, 0, trust.stderr);
        const since = /\n {2}changed since you trusted it \(\d{4}-[^)]*\):\n/;
        assert.match(trust.stderr, since);
        assert.ok(
          trust.stderr.replace(since, "\n<since>\n").includes(
            "  files:     _meta.json, scripts, scripts/run.sh\n<since>\n" +
              "    modified _meta.json (args, description)\n    removed greet.json\n" +
              "    added scripts\n    added scripts/run.sh\nTrusted @proj",
          ),
          trust.stderr,
        );
        assert.equal((await call()).code, 0);
        await box.write(`${dir}/scripts/run.sh`, "#!/bin/sh\nexit 1\n");
        assert.match(
          (await call()).stderr,
          /changed since you trusted it: modified scripts\/run\.sh\n/,
        );
      },
    );
    await t.step("untrust withdraws it; info shows the state", async () => {
      const untrust = await box.run(["profile", "untrust", "proj"]);
      assert.deepEqual([untrust.code, untrust.stdout], [0, ""]);
      assert.match(untrust.stderr, /^Untrusted @proj/);
      assert.equal((await call()).code, 3);
      const info = await box.run(["profile", "info", "@proj", "--format", "json"]);
      assert.equal(JSON.parse(info.stdout).trust, "untrusted");
    });
  } finally {
    await box.dispose();
  }
});

Deno.test("a tool file added to a trusted project profile shapes no call until trusted again: the secret never reaches the server", async () => {
  const box = await sandbox({ here: true });
  const dir = `${box.projectProfiles}/proj`;
  const log = join(box.root, "calls.ndjson");
  const env = { AWS_SECRET_ACCESS_KEY: AWS_SECRET };
  try {
    await box.write(`${dir}/_meta.json`, fixtureMeta({}, ["--call-log", log]));
    assert.equal((await box.run(["profile", "trust", "@proj"])).code, 0);
    const ok = await box.run(["cat", "@proj/echo?text=ok"], { env });
    assert.deepEqual([ok.code, ok.stderr], [0, ""]);
    // What a pull from the repository could bring: a new tool file whose defaults read a secret.
    await box.write(
      `${dir}/leak.json`,
      JSON.stringify({ tool: "echo", defaults: { x: "${AWS_SECRET_ACCESS_KEY}" } }),
    );
    const result = await box.run(["cat", "@proj/leak?text=hi"], { env });
    assert.deepEqual([result.code, result.stdout], [3, ""]);
    assert.match(
      result.stderr,
      /^jn: Project profile "@proj" changed since you trusted it: added leak\.json\n/,
    );
    const logged = await calls(log);
    assert.ok(!logged.includes(AWS_SECRET), logged);
    assert.equal(logged.trim().split("\n").length, 1, "only the call made before the change");
  } finally {
    await box.dispose();
  }
});

Deno.test("a project profile directory is trusted at its real path: a swapped symlink is refused", async (t) => {
  const box = await sandbox({ here: true });
  const real = join(box.root, "real-a");
  const other = join(box.root, "real-b");
  const link = `${box.projectProfiles}/proj`;
  try {
    // The server lives in the profile directory and is started by a relative path.
    for (const dir of [real, other]) {
      await box.write(
        `${dir}/_meta.json`,
        JSON.stringify({ command: "node", args: ["./server.mjs"], cwd: "." }),
      );
      await box.write(`${dir}/server.mjs`, `import ${JSON.stringify(FIXTURE)};\n`);
    }
    await Deno.mkdir(box.projectProfiles, { recursive: true });
    await Deno.symlink(real, link);
    await t.step(
      "trusted through the symlink: the report names the real path, the server runs there",
      async () => {
        const trust = await box.run(["profile", "trust", "@proj"]);
        assert.equal(trust.code, 0, trust.stderr);
        assert.match(trust.stderr, new RegExp(`\n  real path: ${real}\n`));
        assert.match(trust.stderr, new RegExp(`\n  in:        ${real}\n`));
        assert.ok(trust.stderr.includes("\n  files:     _meta.json, server.mjs\n"), trust.stderr);
        const result = await box.run(["cat", "@proj/cwd"]);
        assert.equal(result.code, 0, result.stderr);
        assert.equal((parseNdjson(result.stdout)[0] as { text: string }).text, real);
      },
    );
    await t.step(
      "another name or another project linking to the trusted directory borrows no trust (red team, #12)",
      async () => {
        await Deno.symlink(real, `${box.projectProfiles}/innocent`);
        const renamed = await box.run(["cat", "@innocent/cwd"]);
        assert.deepEqual([renamed.code, renamed.stdout], [3, ""]);
        assert.match(renamed.stderr, /^jn: Project profile "@innocent" is not trusted/);
        const other = join(box.root, "project-b");
        await Deno.mkdir(`${other}/.jn/profiles/mcp`, { recursive: true });
        await Deno.symlink(real, `${other}/.jn/profiles/mcp/proj`);
        const borrowed = await box.run(["cat", "@proj/cwd"], { cwd: other });
        assert.deepEqual([borrowed.code, borrowed.stdout], [3, ""]);
        assert.match(borrowed.stderr, /^jn: Project profile "@proj" is not trusted/);
        await Deno.remove(`${box.projectProfiles}/innocent`);
        assert.equal((await box.run(["cat", "@proj/cwd"])).code, 0, "the trusted one still runs");
      },
    );
    await t.step(
      "trusting another name for the same real directory says it replaced the first trust",
      async () => {
        await Deno.symlink(real, `${box.projectProfiles}/innocent`);
        const trust = await box.run(["profile", "trust", "@innocent"]);
        assert.equal(trust.code, 0, trust.stderr);
        assert.ok(
          trust.stderr.includes(
            `\njn: this replaced the trust of @proj (${link}), the same directory by its real path ${real}: it no longer launches until trusted again (jn profile trust @proj there)\n`,
          ),
          trust.stderr,
        );
        const old = await box.run(["cat", "@proj/cwd"]);
        assert.equal(old.code, 3, "the replaced trust no longer launches, as the note says");
        const again = await box.run(["profile", "trust", "@proj"]);
        assert.match(again.stderr, /this replaced the trust of @innocent /);
        await Deno.remove(`${box.projectProfiles}/innocent`);
        assert.equal((await box.run(["cat", "@proj/cwd"])).code, 0, "trusted again");
      },
    );
    await t.step(
      "the symlink swapped to an identical copy elsewhere: refused, both paths named",
      async () => {
        await Deno.remove(link);
        await Deno.symlink(other, link);
        const result = await box.run(["cat", "@proj/cwd"]);
        assert.deepEqual([result.code, result.stdout], [3, ""]);
        assert.equal(
          result.stderr,
          `jn: Project profile "@proj" now resolves to ${other}, not to ${real} where you trusted it\nhint: a symlink on its path changed: review ${other}, then run: jn profile trust @proj\n`,
        );
      },
    );
  } finally {
    await box.dispose();
  }
});

Deno.test("a trusted project moved elsewhere is 'moved' in profile info, and asks for trust again", async () => {
  const box = await sandbox({ here: true });
  try {
    await box.write(`${box.projectProfiles}/proj/_meta.json`, fixtureMeta());
    assert.equal((await box.run(["profile", "trust", "@proj"])).code, 0);
    const moved = join(box.root, "moved");
    await Deno.rename(box.project, moved);
    const info = await box.run(["profile", "info", "@proj", "--format", "json"], { cwd: moved });
    assert.equal(info.code, 0, info.stderr);
    assert.equal((JSON.parse(info.stdout) as { trust: string }).trust, "moved");
    const call = await box.run(["cat", "@proj/echo?text=x"], { cwd: moved });
    assert.deepEqual([call.code, call.stdout], [3, ""]);
    assert.match(call.stderr, /not to .*\/project\/\.jn\/profiles\/mcp\/proj where you trusted it/);
  } finally {
    await box.dispose();
  }
});

Deno.test("a trust record of jn 0.1 (launch fields only) is not honoured", async () => {
  const box = await sandbox({ here: true });
  const dir = `${box.projectProfiles}/proj`;
  try {
    const fields = { command: "node", args: [FIXTURE] };
    await box.write(`${dir}/_meta.json`, JSON.stringify(fields));
    // Exactly what jn 0.1 wrote: sha256 of the launch fields' canonical JSON, keyed by real path.
    const canonical = `{"args":${JSON.stringify(fields.args)},"command":"node"}`;
    const digest = `sha256:${createHash("sha256").update(canonical).digest("hex")}`;
    await box.write(
      `${box.home}/.local/jn/trust.json`,
      JSON.stringify({
        version: 1,
        profiles: {
          [await Deno.realPath(dir)]: {
            server: "proj",
            digest,
            trusted_at: "2025-01-01T00:00:00Z",
          },
        },
      }),
    );
    const result = await box.run(["cat", "@proj/echo?text=x"]);
    assert.deepEqual([result.code, result.stdout], [3, ""]);
    assert.match(
      result.stderr,
      /^jn: Project profile "@proj" was trusted by an older jn, which checked only its launch fields\nhint: review every file in .*, then run: jn profile trust @proj\n$/,
    );
    const trust = await box.run(["profile", "trust", "@proj"]);
    assert.match(trust.stderr, /last trusted by an older jn/);
    assert.equal((await box.run(["cat", "@proj/echo?text=x"])).code, 0);
    const store = JSON.parse(await Deno.readTextFile(`${box.home}/.local/jn/trust.json`));
    assert.equal(store.version, 2);
  } finally {
    await box.dispose();
  }
});

Deno.test("nothing of a project directory shapes a call to a server it shadows or does not define", async (t) => {
  const box = await sandbox({ here: true });
  const env = { AWS_SECRET_ACCESS_KEY: AWS_SECRET };
  try {
    await t.step(
      "tool files without _meta.json: the bundled @demo is called without them",
      async () => {
        await box.write(
          `${box.projectProfiles}/demo/echo.json`,
          JSON.stringify({ defaults: { text: "${AWS_SECRET_ACCESS_KEY}" } }),
        );
        await box.write(
          `${box.projectProfiles}/demo/items.json`,
          JSON.stringify({ tool: "echo", defaults: { text: "${AWS_SECRET_ACCESS_KEY}" } }),
        );
        const result = await box.run(["cat", "--json", "@demo/items?count=1"], { env });
        assert.deepEqual([result.code, result.stderr], [0, ""]);
        assert.deepEqual(parseNdjson(result.stdout), [{
          id: 1,
          name: "demo-1",
          tags: ["odd", "red"],
        }]);
      },
    );
    await t.step(
      "an untrusted _meta.json shadowing @demo is refused, never passed over",
      async () => {
        await box.write(`${box.projectProfiles}/demo/_meta.json`, fixtureMeta());
        const result = await box.run(["cat", "@demo/echo?text=x"], { env });
        assert.deepEqual([result.code, result.stdout], [3, ""]);
        assert.match(result.stderr, /^jn: Project profile "@demo" is not trusted to launch "node /);
      },
    );
  } finally {
    await box.dispose();
  }
});

Deno.test("a relative JN_HOME is refused (exit 3): it would make the current directory a layer without trust", async () => {
  const box = await sandbox({ here: true });
  try {
    await box.write(`${box.project}/cfg/profiles/mcp/here/_meta.json`, fixtureMeta());
    const result = await box.run(["cat", "@here/echo?text=x"], { env: { JN_HOME: "cfg" } });
    assert.deepEqual([result.code, result.stdout], [3, ""]);
    assert.equal(
      result.stderr,
      `jn: JN_HOME must be an absolute path, got "cfg"\nhint: set it to an absolute path, e.g. export JN_HOME="$PWD/cfg"\n`,
    );
    const absolute = await box.run(["cat", "@here/echo?text=x"], {
      env: { JN_HOME: `${box.project}/cfg` },
    });
    assert.deepEqual([absolute.code, absolute.stderr], [0, ""]);
  } finally {
    await box.dispose();
  }
});

Deno.test("a started jn refuses an untrusted project profile (exit 3) and runs it once trusted", async () => {
  // The other tests run the CLI in-process; this one starts jn as users do.
  const box = await sandbox();
  try {
    const dir = `${box.projectProfiles}/proj`;
    await box.write(`${dir}/_meta.json`, fixtureMeta());
    const refused = await box.run(["cat", "@proj/echo?text=ok"]);
    assert.deepEqual([refused.code, refused.stdout], [3, ""]);
    assert.equal(
      refused.stderr,
      `jn: Project profile "@proj" is not trusted to launch "node ${FIXTURE}"\nhint: review every file in ${dir}, then run: jn profile trust @proj\n`,
    );
    assert.equal((await box.run(["profile", "trust", "@proj"])).code, 0);
    const trusted = await box.run(["cat", "@proj/echo?text=ok"]);
    assert.equal(trusted.code, 0, trusted.stderr);
    assert.equal((parseNdjson(trusted.stdout)[0] as { text: string }).text, '{"text":"ok"}');
  } finally {
    await box.dispose();
  }
});
