/**
 * The profile commands and references, black-box: `jn` run with a temporary
 * HOME and project directory; exit code, stdout and stderr asserted.
 */
import assert from "node:assert/strict";
import { parseNdjson } from "../helpers.ts";
import { startFixture } from "../remote/support.ts";
import { fixtureMeta, sandbox } from "./sandbox.ts";

const SECRET = "sk-very-secret-0123456789";

Deno.test("jn profile list shows every layer's profiles, shadowed ones as such", async (t) => {
  const box = await sandbox({ here: true });
  try {
    await box.write(`${box.user}/demo/_meta.json`, fixtureMeta({ description: "my demo" }));
    await box.write(`${box.projectProfiles}/demo/extra.json`, `{}`);
    await box.write(`${box.user}/broken/_meta.json`, `{"command": "x",,}`);
    await t.step("json: layer, path, status, description", async () => {
      const result = await box.run(["profile", "list", "--format", "json"]);
      assert.deepEqual([result.code, result.stderr], [0, ""]);
      const entries = JSON.parse(result.stdout) as Record<string, unknown>[];
      const demo = entries.filter((e) => e.name === "demo").map((e) => [e.layer, e.status]);
      assert.deepEqual(demo, [["project", "ignored"], ["user", "active"], ["bundled", "extends"]]);
      const broken = entries.find((e) => e.name === "broken")!;
      assert.equal(broken.status, "invalid");
      assert.match(String(broken.error), /_meta.json:1:17: unexpected character|_meta.json:1:17/);
    });
    await t.step("text: one entry per directory, with its path and what it is", async () => {
      const result = await box.run(["profile", "list"]);
      assert.equal(result.code, 0);
      assert.match(
        result.stdout,
        /@demo +user +\S+\/home\/\.local\/jn\/profiles\/mcp\/demo\n +my demo\n/,
      );
      assert.match(
        result.stdout,
        /@demo +bundled +bundled:demo\n +extends the user profile with its tool files/,
      );
      assert.match(result.stdout, /@broken +user .*\n +invalid: Invalid JSON in /);
    });
  } finally {
    await box.dispose();
  }
});

Deno.test("bad profiles are one-line errors with exit 3 and nothing on stdout", async (t) => {
  const box = await sandbox({ here: true });
  try {
    const file = await box.write(
      `${box.user}/bad/_meta.json`,
      `{\n  "command": "node"\n  "args": []\n}\n`,
    );
    await t.step("a JSONC syntax error names file:line:column", async () => {
      const result = await box.run(["cat", "@bad/echo"]);
      assert.deepEqual([result.code, result.stdout], [3, ""]);
      assert.equal(result.stderr.split("\n")[0], `jn: Invalid JSON in ${file}:3:3: expected ","`);
    });
    await t.step("an unset variable names the variable and the file", async () => {
      await box.write(`${box.user}/bad/_meta.json`, fixtureMeta({ env: { KEY: "${NOPE_KEY}" } }));
      const result = await box.run(["inspect", "@bad"]);
      assert.deepEqual([result.code, result.stdout], [3, ""]);
      assert.match(
        result.stderr,
        new RegExp(`^jn: Variable "NOPE_KEY" is not set \\(used in ${file}:\\d+:\\d+\\)\nhint: `),
      );
    });
    await t.step("profile info still shows it, naming the unset variable", async () => {
      const result = await box.run(["profile", "info", "@bad"]);
      assert.deepEqual([result.code, result.stderr], [0, ""]);
      assert.match(
        result.stdout,
        /env: +KEY=\$\{NOPE_KEY\}\n +unset: +NOPE_KEY \(set them before using @bad\)/,
      );
    });
    await t.step("an unknown profile", async () => {
      const result = await box.run(["cat", "@missing/x"]);
      assert.deepEqual([result.code, result.stdout], [3, ""]);
      assert.match(
        result.stderr,
        /^jn: Profile "@missing" not found\nhint: list profiles with 'jn profile list'/,
      );
    });
  } finally {
    await box.dispose();
  }
});

Deno.test("tool mapping and defaults: tool file < _meta.json < URI < --arg", async () => {
  const box = await sandbox({ here: true });
  try {
    await box.write(
      `${box.user}/fx/_meta.json`,
      fixtureMeta({
        tools: { greet: { defaults: { a: "meta", b: "meta", c: "meta" } } },
      }),
    );
    await box.write(
      `${box.user}/fx/greet.jsonc`,
      `// calls the fixture's echo\n{"tool": "echo", "defaults": {"text": "file", "a": "file"}}`,
    );
    const result = await box.run(["cat", "@fx/greet?b=uri&c=uri", "--arg", "c=flag"]);
    assert.deepEqual([result.code, result.stderr], [0, ""]);
    const [record] = parseNdjson(result.stdout) as { tool: string; text: string }[];
    assert.equal(record.tool, "echo");
    assert.deepEqual(JSON.parse(record.text), { text: "file", a: "meta", b: "uri", c: "flag" });
  } finally {
    await box.dispose();
  }
});

Deno.test("substituted values never appear in jn's own output", async (t) => {
  const box = await sandbox({ here: true });
  const env = { MY_SECRET: SECRET };
  try {
    await box.write(
      `${box.user}/sec/_meta.json`,
      fixtureMeta({
        env: { API_KEY: "${MY_SECRET}" },
        tools: { say: { tool: "echo", defaults: { text: "key=${MY_SECRET}" } } },
      }, ["--stderr-banner", "banner ${MY_SECRET}"]),
    );
    await t.step("profile info (text and json) shows ***", async () => {
      for (const format of ["text", "json"]) {
        const result = await box.run(["profile", "info", "@sec", "--format", format], { env });
        assert.equal(result.code, 0, result.stderr);
        assert.ok(!result.stdout.includes(SECRET) && !result.stderr.includes(SECRET));
        assert.match(
          result.stdout,
          format === "text" ? /env: +API_KEY=\*\*\*/ : /"API_KEY": "\*\*\*"/,
        );
      }
    });
    await t.step("--debug: protocol log and server stderr are redacted", async () => {
      const result = await box.run(["--debug", "cat", "@sec/say"], { env });
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stderr, /→ .*tools\/call/);
      assert.match(result.stderr, /banner \*\*\*/);
      assert.ok(!result.stderr.includes(SECRET), result.stderr);
    });
    await t.step(
      "errors: a server that dies printing the secret (stderr tail, --debug stack)",
      async () => {
        await box.write(
          `${box.user}/sec/_meta.json`,
          JSON.stringify({
            command: "node",
            args: [
              "-e",
              "console.error('dying with ' + process.argv[1]); process.exit(3)",
              "${MY_SECRET}",
            ],
          }),
        );
        for (const args of [["cat", "@sec/x"], ["--debug", "cat", "@sec/x"]]) {
          const result = await box.run(args, { env });
          assert.equal(result.code, 4, result.stderr);
          assert.match(
            result.stderr,
            /^jn: The server "@sec" exited with code 3 before the MCP handshake/m,
          );
          assert.match(result.stderr, /dying with \*\*\*/);
          assert.ok(!result.stderr.includes(SECRET), result.stderr);
        }
      },
    );
  } finally {
    await box.dispose();
  }
});

Deno.test("a remote profile: url and headers with a secret that jn never prints", async () => {
  const box = await sandbox({ here: true });
  const server = await startFixture("http_server.ts");
  try {
    await box.write(
      `${box.user}/remote/_meta.json`,
      JSON.stringify({
        url: `${server.url}/headers/mcp`,
        headers: { "X-Api-Key": "${MY_SECRET}" },
      }),
    );
    const result = await box.run(["--debug", "cat", "@remote/echo?text=x"], {
      env: { MY_SECRET: SECRET },
    });
    assert.equal(result.code, 0, result.stderr);
    const [record] = parseNdjson(result.stdout) as { text: string }[];
    assert.equal(JSON.parse(record.text)["x-api-key"], SECRET, "the server got the header");
    assert.match(result.stderr, /tools\/call/);
    assert.ok(!result.stderr.includes(SECRET), result.stderr);
  } finally {
    await server.stop();
    await box.dispose();
  }
});
