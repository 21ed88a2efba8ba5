/**
 * Values substituted from `${VAR}` are never printed (SPEC §4), in any
 * format, whole or split across writes, as they are or encoded: black-box
 * against tests/fixtures/servers/escapes.mjs, which echoes the secret it gets
 * through a profile's `env` in every way it can.
 */

import assert from "node:assert/strict";
import { FIXTURES, runJn, tempDir } from "../helpers.ts";

const SECRET = 's3cr3t/"val+ue Z';

const base64 = (text: string) => btoa(String.fromCharCode(...new TextEncoder().encode(text)));

/** Every form of the secret that must not appear (for base64: the part only it determines). */
function forms(): string[] {
  const basic = base64(`user:${SECRET}`);
  const start = Math.ceil((8 * 5) / 6);
  const end = Math.floor((8 * (5 + new TextEncoder().encode(SECRET).length)) / 6);
  return [
    SECRET,
    JSON.stringify(SECRET).slice(1, -1),
    encodeURIComponent(SECRET),
    basic.slice(start, end),
    // Halves: a secret split between two writes must not leak either.
    SECRET.slice(0, 8),
    SECRET.slice(8),
  ];
}

function assertNoSecret(text: string, where: string): void {
  for (const form of forms()) {
    assert.ok(!text.includes(form), `${where} shows ${JSON.stringify(form)}:\n${text}`);
  }
}

/** A HOME with a user profile `esc` that passes ${JN_TEST_SECRET} to the server. */
async function withProfile(fn: (env: Record<string, string>) => Promise<void>): Promise<void> {
  const home = await tempDir();
  try {
    const dir = `${home}/.local/jn/profiles/mcp/esc`;
    await Deno.mkdir(dir, { recursive: true });
    await Deno.writeTextFile(
      `${dir}/_meta.json`,
      JSON.stringify({
        command: "node",
        args: [`${FIXTURES}/servers/escapes.mjs`],
        env: { ESCAPES_SECRET: "${JN_TEST_SECRET}" },
        schema_hash: "0".repeat(32),
      }),
    );
    // The profile's own snapshot quotes the secret too: drift reports compare it.
    await Deno.writeTextFile(
      `${dir}/whoami.json`,
      JSON.stringify({
        description: "Signed in as ${JN_TEST_SECRET}",
        defaults: { token: "${JN_TEST_SECRET}" },
        inputSchema: {
          type: "object",
          properties: { token: { type: "string", description: "token ${JN_TEST_SECRET}" } },
        },
      }),
    );
    await fn({ HOME: home, JN_TEST_SECRET: SECRET });
  } finally {
    await Deno.remove(home, { recursive: true });
  }
}

Deno.test("a secret never reaches stdout or stderr, in any format", async (t) => {
  await withProfile(async (env) => {
    const cases: [string, string[], number, RegExp[]][] = [
      [
        "--debug: server stderr split across writes, URL-encoded, JSON-escaped, Basic auth",
        ["--debug", "cat", "@esc/whoami"],
        0,
        [/\] secret-split:\*\*\*\n/, /\] url:\*\*\*\n/, /\] json:"\*\*\*"\n/, /\] basic:\S*\*\*\*/],
      ],
      ["a log notification", ["cat", "@esc/log"], 0, [/error: key \*\*\*/]],
      ["a JSON-RPC error message", ["cat", "@esc/fail"], 5, [/-32000: fail .* \*\*\*/]],
      ["inspect (text)", ["inspect", "@esc"], 0, []],
      ["inspect --format json", ["inspect", "@esc", "--format", "json"], 0, []],
      ["mcp explore", ["mcp", "explore", "@esc"], 0, []],
      ["profile info --format json", ["profile", "info", "@esc", "--format", "json"], 0, []],
      ["profile diff (text)", ["profile", "diff", "@esc"], 0, []],
      ["profile diff --format json", ["profile", "diff", "@esc", "--format", "json"], 0, []],
      [
        "profile validate --format json",
        ["profile", "validate", "@esc", "--format", "json"],
        3,
        [],
      ],
    ];
    for (const [name, args, exit, stderrShows] of cases) {
      await t.step(name, async () => {
        const { code, stdout, stderr } = await runJn(args, { env });
        assert.equal(code, exit, stderr);
        assertNoSecret(stdout, "stdout");
        assertNoSecret(stderr, "stderr");
        for (const pattern of stderrShows) assert.match(stderr, pattern);
      });
    }
  });
});

Deno.test("what inspect and profile diff quote of a secret is shown as ***", async () => {
  await withProfile(async (env) => {
    const inspect = await runJn(["inspect", "@esc", "--format", "json"], { env });
    const whoami = JSON.parse(inspect.stdout).tools.find((t: { name: string }) =>
      t.name === "whoami"
    );
    assert.equal(whoami.description, "Signed in with ***");
    const diff = await runJn(["profile", "diff", "@esc", "--format", "json"], { env });
    const changed = JSON.parse(diff.stdout).changes.find((c: { kind: string; tool: string }) =>
      c.kind === "description_changed" && c.tool === "whoami"
    );
    assert.deepEqual([changed.old, changed.new], ["Signed in as ***", "Signed in with ***"]);
  });
});

Deno.test("a secret cut by the 16 KiB stderr tail does not leak its end", async () => {
  const home = await tempDir();
  try {
    const dir = `${home}/.local/jn/profiles/mcp/cut`;
    await Deno.mkdir(dir, { recursive: true });
    await Deno.writeTextFile(
      `${dir}/_meta.json`,
      JSON.stringify({
        command: "node",
        args: [`${FIXTURES}/servers/stderr_cut.mjs`],
        env: { CUT_SECRET: "${JN_TEST_SECRET}" },
        schema_hash: "0".repeat(32),
      }),
    );
    const { code, stdout, stderr } = await runJn(["cat", "@cut/anything"], {
      env: { HOME: home, JN_TEST_SECRET: SECRET },
    });
    assert.equal(code, 4, stderr);
    assert.equal(stdout, "");
    // The tail starts with the secret's last 8 characters: that partial line is not shown.
    assert.ok(!stderr.includes(SECRET.slice(-8)), `stderr shows the cut secret:\n${stderr}`);
    assertNoSecret(stderr, "stderr");
    assert.match(stderr, /server stderr \(last lines\):\n {2}f+\n {2}stderr_cut: giving up/);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
