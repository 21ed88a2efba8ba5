/**
 * Exit 70 is for jn's own bugs only: what the user or the environment got
 * wrong (a full disk, a read-only file system, a name too long, a jq program
 * that makes jq abort, a command group without its subcommand) is a one-line
 * error with a hint and its own exit code.
 */

import assert from "node:assert/strict";
import { baseEnv, canMountTmpfs, finish, jnArgs, ROOT, runJn, tempDir } from "../helpers.ts";

/** Runs jn with its stdout sent to `path` (a shell redirection: /dev/full). */
async function runJnTo(path: string, args: string[], stdin?: string) {
  const command = new Deno.Command("sh", {
    args: [
      "-c",
      `exec "$@" > ${path}`,
      "sh",
      Deno.execPath(),
      ...jnArgs(args),
    ],
    cwd: ROOT,
    env: baseEnv(),
    clearEnv: true,
    stdin: stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  });
  return await finish(command.spawn(), { stdin });
}

Deno.test({
  name: "a full disk on stdout is exit 2 with a one-line error, not an internal error",
  ignore: Deno.build.os !== "linux",
  async fn(t) {
    const cases: [string, string[], string | undefined][] = [
      ["profile list", ["profile", "list"], undefined],
      ["cat (NDJSON)", ["cat", "@demo?list=tools"], undefined],
      ["filter", ["filter", "."], '{"a":1}\n'],
      ["profile info --format json", ["profile", "info", "@demo", "--format", "json"], undefined],
    ];
    for (const [name, args, stdin] of cases) {
      await t.step(name, async () => {
        const { code, stderr } = await runJnTo("/dev/full", args, stdin);
        assert.equal(code, 2, stderr);
        assert.equal(
          stderr,
          "jn: Cannot write the output: no space left on device\n" +
            "hint: stdout goes to a full disk: free some space, or redirect it elsewhere\n",
        );
      });
    }
  },
});

Deno.test("a profile name too long for the file system is exit 2, naming the path", async () => {
  const home = await tempDir();
  try {
    const name = "a".repeat(300);
    const { code, stdout, stderr } = await runJn(["profile", "create", name], {
      env: { HOME: home },
      stdin: JSON.stringify({ command: "node", args: ["server.js"] }),
    });
    assert.equal(code, 2, stderr);
    assert.equal(stdout, "");
    const [message, hint, rest] = stderr.split("\n");
    assert.match(message, /^jn: Cannot write ".*\/\.?a{300}.*": file name too long$/);
    assert.equal(hint, "hint: use a shorter name (most file systems allow 255 bytes per name)");
    assert.equal(rest, "");
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("a jq expression that makes jq abort is exit 2, with no noise from the runtime", async () => {
  const { code, stdout, stderr } = await runJn(["filter", "def f: [f]; f"], { stdin: "1\n" });
  assert.equal(code, 2, stderr);
  assert.equal(stdout, "");
  assert.equal(
    stderr,
    'jn: The jq expression "def f: [f]; f" made jq abort on line 1\n' +
      "hint: it may recurse without end or need too much memory: simplify it\n",
  );
});

Deno.test("a command group without its subcommand is exit 2, listing the subcommands", async (t) => {
  const cases: [string, string][] = [
    ["profile", "list, info, create, trust, untrust, import, validate, diff, update"],
    ["auth", "login, logout, status"],
    ["mcp", "explore, tools, schema, hash, demo-server"],
  ];
  for (const [group, subcommands] of cases) {
    await t.step(`jn ${group}`, async () => {
      const { code, stdout, stderr } = await runJn([group]);
      assert.equal(code, 2, stderr);
      assert.equal(stdout, "");
      assert.equal(
        stderr,
        `jn: Missing a subcommand after "jn ${group}"\n` +
          `hint: jn ${group} has: ${subcommands} (see 'jn help ${group}')\n`,
      );
    });
  }
  await t.step("jn alone shows the help on stderr, exit 2", async () => {
    const { code, stdout, stderr } = await runJn([]);
    assert.equal(code, 2);
    assert.equal(stdout, "");
    assert.match(stderr, /^Usage: jn \[options\] \[command\]\n/);
  });
});

const TMPFS = await canMountTmpfs();
if (!TMPFS) {
  // deno-lint-ignore no-console
  console.warn(
    "skipping the read-only and full file system tests: they need `unshare -rm` and " +
      "`mount -t tmpfs` in a user namespace (Linux with unprivileged user namespaces)",
  );
}

/** Runs jn in a private mount namespace with a tmpfs (`options`) mounted at `dir`. */
async function runJnOnTmpfs(dir: string, options: string, args: string[], env = {}) {
  const command = new Deno.Command("unshare", {
    args: [
      "-rm",
      "sh",
      "-c",
      `mount -t tmpfs -o ${options} none "$0" && exec "$@"`,
      dir,
      Deno.execPath(),
      ...jnArgs(args),
    ],
    cwd: ROOT,
    env: { ...baseEnv(), ...env },
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  });
  return await finish(command.spawn(), { stdin: JSON.stringify({ command: "node" }) });
}

Deno.test({
  name: "jn's own directory on a read-only file system is exit 3 (configuration), not 70",
  ignore: !TMPFS,
  async fn() {
    const home = await tempDir();
    try {
      const { code, stdout, stderr } = await runJnOnTmpfs(home, "ro", ["profile", "create", "x"], {
        HOME: home,
      });
      assert.equal(code, 3, stderr);
      assert.equal(stdout, "");
      const [message, hint] = stderr.split("\n");
      assert.match(message, /^jn: Cannot write ".*": read-only file system$/);
      assert.equal(hint, "hint: that file system is read-only: write elsewhere");
    } finally {
      await Deno.remove(home, { recursive: true });
    }
  },
});
