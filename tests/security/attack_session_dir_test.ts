/**
 * The calling side of command forwarding (lib/cli/forward.ts) sends its
 * whole environment to a session's socket: only to `KEY.sock` of a
 * record's key in a sessions directory that is private with every folder
 * above it, when that entry is a socket of the user's own — never to the
 * path a record names, through a symlink, or under a folder another user
 * may change; and what a session answers reaches the terminal with its
 * control characters made visible. The files a session creates there (its
 * log, its lock) are never opened through a symlink. A listener of the test's own stands
 * for the session (or for another user's socket), and a small script runs
 * what `main.ts` runs first (forward_lookup.ts, then forward.ts).
 *
 * @module
 */

import assert from "node:assert/strict";
import { baseEnv, ROOT } from "../helpers.ts";
import { VERSION } from "../../lib/version.ts";
import { FRAME, frame, textFrame } from "../../lib/client/session_frames.ts";
import { COUNTER, sessionHome } from "../sessions/support.ts";

const KEY = "0123456789abcdef0123456789abcdef";
const SECRET = "s3cr3t-of-the-caller";
// deno-lint-ignore no-control-regex
const RAW_CONTROL = /[\x00-\x08\x0b-\x1f\x7f]/;

/** A throwaway HOME whose sessions directory is private; `above` is the folder holding HOME. */
async function place(): Promise<{ base: string; home: string; dir: string } & AsyncDisposable> {
  const base = await Deno.makeTempDir({ prefix: "jn-fwd-" });
  const home = `${base}/above/home`;
  const dir = `${home}/.local/jn/sessions`;
  await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
  await Deno.chmod(dir, 0o700);
  return {
    base,
    home,
    dir,
    [Symbol.asyncDispose]: () => Deno.remove(base, { recursive: true }).catch(() => {}),
  };
}

/** A socket standing for a session: counts who connects, keeps what they sent, answers `reply`. */
function listen(path: string, reply?: Uint8Array) {
  const listener = Deno.listen({ transport: "unix", path });
  const got = { connections: 0, bytes: "" };
  const loop = (async () => {
    for await (const conn of listener) {
      got.connections++;
      const buffer = new Uint8Array(64 * 1024);
      const start = Date.now();
      while (!got.bytes.includes(SECRET) && Date.now() - start < 5_000) {
        const read = await conn.read(buffer).catch(() => null);
        if (read === null) break;
        got.bytes += new TextDecoder().decode(buffer.subarray(0, read));
      }
      if (reply) await conn.write(reply).catch(() => {});
      conn.close();
    }
  })().catch(() => {});
  return {
    got,
    [Symbol.asyncDispose]: async () => {
      listener.close();
      await loop;
    },
  };
}

async function record(dir: string, source: string, socket = `${dir}/${KEY}.sock`): Promise<void> {
  await Deno.writeTextFile(
    `${dir}/${KEY}.json`,
    JSON.stringify({ version: VERSION, source, socket }),
  );
}

/** What `main.ts` does first for `args`, with HOME `home` and a secret in the environment. */
async function caller(home: string, args: string[]) {
  const script = `${home}/../caller.ts`;
  await Deno.writeTextFile(
    script,
    `import { sessionsNamedBy } from "${ROOT}/lib/cli/forward_lookup.ts";\n` +
      `import { forwardToSession } from "${ROOT}/lib/cli/forward.ts";\n` +
      `const args = JSON.parse(Deno.args[0]);\n` +
      `const sessions = sessionsNamedBy(args);\n` +
      `const code = sessions && await forwardToSession(args, sessions);\n` +
      `console.log(JSON.stringify(code ?? null));\n`,
  );
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--no-config", script, JSON.stringify(args)],
    env: { ...baseEnv(), HOME: home, MY_API_TOKEN: SECRET },
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  assert.equal(out.code, 0, text(out.stderr));
  return { forwarded: JSON.parse(text(out.stdout)), stderr: text(out.stderr) };
}

const DECLINE = textFrame(FRAME.decline, "not mine");

Deno.test("forwarding: a private sessions directory's session gets the command (the control)", async () => {
  await using at = await place();
  await using session = listen(`${at.dir}/${KEY}.sock`, DECLINE);
  await record(at.dir, "@x");
  const run = await caller(at.home, ["cat", "@x/t"]);
  assert.equal(run.forwarded, null, "declined: the caller runs it itself");
  assert.equal(session.got.connections, 1);
  assert.ok(session.got.bytes.includes(SECRET));
});

Deno.test("attack: the socket a record names is not connected to", async () => {
  await using at = await place();
  await using elsewhere = listen(`${at.base}/elsewhere.sock`, DECLINE);
  await record(at.dir, "@x", `${at.base}/elsewhere.sock`);
  await caller(at.home, ["cat", "@x/t"]);
  assert.equal(elsewhere.got.connections, 0, `it got: ${elsewhere.got.bytes.slice(0, 80)}`);
});

Deno.test("attack: a session's socket that is a symlink to another socket is not followed", async () => {
  await using at = await place();
  await using elsewhere = listen(`${at.base}/elsewhere.sock`, DECLINE);
  await Deno.symlink(`${at.base}/elsewhere.sock`, `${at.dir}/${KEY}.sock`);
  await record(at.dir, "@x");
  await caller(at.home, ["cat", "@x/t"]);
  assert.equal(elsewhere.got.connections, 0, `it got: ${elsewhere.got.bytes.slice(0, 80)}`);
});

Deno.test("attack: a folder above the sessions directory that others may write is refused", async () => {
  await using at = await place();
  await using session = listen(`${at.dir}/${KEY}.sock`, DECLINE);
  await record(at.dir, "@x");
  await Deno.chmod(`${at.base}/above`, 0o777);
  const run = await caller(at.home, ["--debug", "cat", "@x/t"]);
  assert.equal(session.got.connections, 0, "the environment was sent");
  assert.match(run.stderr, /not private: the folder .*\/above above it may be written by others/);
  // A sticky folder (as /tmp) is fine: others cannot rename what is not theirs.
  await Deno.chmod(`${at.base}/above`, 0o1777);
  await caller(at.home, ["cat", "@x/t"]);
  assert.equal(session.got.connections, 1);
});

Deno.test("attack: session start under a folder others may write is refused", async () => {
  await using home = await sessionHome();
  await Deno.chmod(home.dir, 0o777);
  const start = await home.jn(["session", "start", COUNTER]);
  assert.equal(start.code, 3, start.stderr);
  assert.match(start.stderr, /not private: the folder .* above it may be written by others/);
  await Deno.chmod(home.dir, 0o700);
});

Deno.test("attack: a session's --debug decline reason reaches the terminal made visible", async () => {
  await using at = await place();
  const why = "no\x1b]0;PWNED\x07\x1b[41m way";
  await using _session = listen(`${at.dir}/${KEY}.sock`, textFrame(FRAME.decline, why));
  await record(at.dir, "@x");
  const run = await caller(at.home, ["--debug", "cat", "@x/t"]);
  assert.ok(!RAW_CONTROL.test(run.stderr), JSON.stringify(run.stderr));
  assert.ok(run.stderr.includes("no\\x1b]0;PWNED\\x07\\x1b[41m way"), run.stderr);
});

Deno.test("attack: the source of a session that went away reaches the terminal made visible", async () => {
  await using at = await place();
  const source = "@x\x1b]0;PWNED\x07";
  await using _session = listen(`${at.dir}/${KEY}.sock`, frame(FRAME.accept));
  await record(at.dir, source);
  const run = await caller(at.home, ["cat", `${source}/t`]);
  assert.equal(run.forwarded, 4, "the session ended while running the command");
  assert.ok(!RAW_CONTROL.test(run.stderr), JSON.stringify(run.stderr));
  assert.ok(run.stderr.includes("@x\\x1b]0;PWNED\\x07"), run.stderr);
});

// ---------------------------------------------------------------------------
// A session's start creates its log and lock in the sessions directory:
//    a symlink put there in their place (KEY.log -> a file of the user's) is
//    replaced, never followed — no file truncated, none created elsewhere.
// ---------------------------------------------------------------------------
Deno.test("attack: a session's log and lock are never opened through a symlink", async () => {
  await using home = await sessionHome();
  assert.equal((await home.jn(["session", "start", COUNTER])).code, 0);
  const key = [...Deno.readDirSync(home.sessions)].find((e) => e.name.endsWith(".sock"))!.name
    .slice(0, -".sock".length);
  assert.equal((await home.jn(["session", "stop", COUNTER])).code, 0);
  const bait = `${home.dir}/precious.txt`;
  await Deno.writeTextFile(bait, "keep me\n");
  await Deno.symlink(bait, `${home.sessions}/${key}.log`);
  await Deno.symlink(`${home.dir}/made-through-lock`, `${home.sessions}/${key}.lock`);
  const start = await home.jn(["session", "start", COUNTER]);
  assert.equal(start.code, 0, start.stderr);
  assert.equal(await Deno.readTextFile(bait), "keep me\n", "the log's symlink was followed");
  assert.ok(!(await exists(`${home.dir}/made-through-lock`)), "the lock's symlink was followed");
  for (const suffix of ["log", "lock"]) {
    const info = await Deno.lstat(`${home.sessions}/${key}.${suffix}`);
    assert.ok(info.isFile && (info.mode! & 0o777) === 0o600, suffix);
  }
});

async function exists(path: string): Promise<boolean> {
  return await Deno.lstat(path).then(() => true, () => false);
}
