/**
 * A sandboxed server never reaches a session's socket, whatever it was
 * granted: the socket runs jn commands of its source in the session's
 * process, outside the sandbox (`jn cat SOURCE --save-dir /anywhere`,
 * `--args @~/.ssh/id_rsa`), and a read-only view of it is enough to
 * connect. The probe server, granted the home directory or the runtime
 * directory, finds the sessions folders empty — also one made after it
 * started. Needs bubblewrap; ignored, saying so, without it.
 *
 * @module
 */

import assert from "node:assert/strict";
import { requireBwrap } from "../sandbox/bwrap_support.ts";
import { PROBE, query } from "../sandbox/probe.ts";
import {
  PASSWD_HOME,
  requirePlace,
  RUNTIME,
  socketsIn,
  useRuntime,
} from "../sandbox/session_places.ts";
import { COUNTER, type SessionHome, sessionHome } from "../sessions/support.ts";

const FILE = "tests/security/sandbox_sessions_test.ts";
const NO_BWRAP = await requireBwrap(FILE);
const NO_RUNTIME = NO_BWRAP || requirePlace(RUNTIME, `${FILE} (A1, A3: /run/user/UID)`);
const NO_PASSWD_HOME = NO_BWRAP || requirePlace(PASSWD_HOME, `${FILE} (A2: the passwd home)`);
const SERVER = `mcp+node://${PROBE}`;
const ESCAPER = new URL("../sandbox/fixtures/session_escaper.mjs", import.meta.url).pathname;

/**
 * The socket of the one session in `dir` not among `before`, checked to take
 * connections from outside.
 */
async function socketIn(dir: string, before: string[] = []): Promise<string> {
  const sockets = socketsIn(dir).filter((socket) => !before.includes(socket));
  assert.equal(sockets.length, 1, sockets.join(" "));
  (await Deno.connect({ transport: "unix", path: sockets[0] })).close();
  return sockets[0];
}

/**
 * A session of `source` started with `env` (one of the user's real places:
 * its folder `dir`), its socket; stopped by its source, never `--all`.
 */
async function realSession(
  home: SessionHome,
  source: string,
  env: Record<string, string>,
  dir: string,
): Promise<AsyncDisposable & { socket: string }> {
  const before = socketsIn(dir);
  const stop = () => home.jn(["session", "stop", "-q", source], { env });
  const started = await home.jn(["session", "start", source], { env });
  try {
    assert.equal(started.code, 0, started.stderr);
    return {
      socket: await socketIn(dir, before),
      [Symbol.asyncDispose]: async () => void await stop(),
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** `jn cat` of a probe tool, sandboxed with `grant` readable; the tool's answer. */
async function probe(
  home: SessionHome,
  grant: string,
  args: Record<string, string>,
  env: Record<string, string> = {},
  flags: string[] = [],
) {
  const result = await home.jn(
    ["cat", "--json", ...flags, "--sandbox", "--sandbox-read", grant, `${SERVER}?${query(args)}`],
    { env },
  );
  const [line] = result.stdout.trim().split("\n");
  assert.ok(line, `no answer (${result.code}): ${result.stderr}`);
  return { ...result, answer: JSON.parse(line) as { text: string; isError?: boolean } };
}

Deno.test({
  name: "sandbox: a server granted the home directory cannot reach a session's socket",
  ignore: NO_BWRAP,
  fn: async () => {
    await using home = await sessionHome();
    await Deno.writeTextFile(`${home.home}/notes.txt`, "granted");
    assert.equal((await home.jn(["session", "start", COUNTER])).code, 0);
    const socket = await socketIn(home.sessions);
    // The grant itself works: the home directory is there.
    const notes = await probe(home, home.home, {
      tool: "read_file",
      path: `${home.home}/notes.txt`,
    });
    assert.equal(notes.answer.text, "granted", notes.stderr);
    const connect = await probe(home, home.home, { tool: "connect_socket", path: socket });
    assert.notEqual(connect.answer.text, "connected", "the sandboxed server reached the session");
    assert.match(connect.answer.text, /ENOENT/);
    const list = await probe(home, home.home, { tool: "list_dir", path: home.sessions });
    assert.equal(list.answer.text, "", "the sessions folder shows nothing");
  },
});

Deno.test({
  name: "sandbox: a server granted the runtime directory cannot reach a session's socket",
  ignore: NO_BWRAP,
  fn: async () => {
    await using home = await sessionHome();
    const runtime = `${home.dir}/rt`;
    await Deno.mkdir(runtime, { mode: 0o700 });
    const env = { XDG_RUNTIME_DIR: runtime };
    try {
      assert.equal((await home.jn(["session", "start", COUNTER], { env })).code, 0);
      const socket = await socketIn(`${runtime}/jn`);
      const connect = await probe(home, runtime, { tool: "connect_socket", path: socket }, env);
      assert.notEqual(connect.answer.text, "connected", "the sandboxed server reached the session");
      assert.match(connect.answer.text, /ENOENT/);
    } finally {
      await home.jn(["session", "stop", "--all", "-q"], { env });
    }
  },
});

Deno.test({
  name: "sandbox: a session started while a sandboxed server runs stays out of its reach",
  ignore: NO_BWRAP,
  fn: async () => {
    await using home = await sessionHome();
    const runtime = `${home.dir}/rt`;
    await Deno.mkdir(runtime, { mode: 0o700 });
    // The probe runs on in a session of its own (in the runtime directory), granted the home
    // directory, before ~/.local/jn/sessions exists.
    const env = { XDG_RUNTIME_DIR: runtime };
    const sandbox = ["--sandbox", "--sandbox-read", home.home];
    try {
      const started = await home.jn(["session", "start", ...sandbox, SERVER], { env });
      assert.equal(started.code, 0, started.stderr);
      // A jn without a runtime directory starts a session in ~/.local/jn/sessions.
      assert.equal((await home.jn(["session", "start", COUNTER])).code, 0);
      const socket = await socketIn(home.sessions);
      const args = { tool: "connect_socket", path: socket };
      const connect = await probe(home, home.home, args, env, ["--debug"]);
      assert.match(connect.stderr, /through the session of mcp\+node:/);
      assert.notEqual(connect.answer.text, "connected", "the sandboxed server reached the session");
      assert.match(connect.answer.text, /ENOENT/);
      const mode = (await Deno.stat(home.sessions)).mode! & 0o777;
      assert.equal(mode, 0o700, "the folder jn made to hide it is private");
    } finally {
      await home.jn(["session", "stop", "--all", "-q"], { env });
    }
  },
});

Deno.test({
  name: "sandbox: a server launched without XDG_RUNTIME_DIR cannot reach /run/user/UID/jn (A1)",
  ignore: NO_RUNTIME,
  fn: async () => {
    await using home = await sessionHome();
    await using runtime = await useRuntime(RUNTIME as string);
    const env = { XDG_RUNTIME_DIR: runtime.path };
    await using session = await realSession(home, COUNTER, env, `${runtime.path}/jn`);
    // The same user, the same HOME; only the runtime directory is not in this jn's environment.
    for (const grant of [runtime.path, "/run"]) {
      const connect = await probe(home, grant, { tool: "connect_socket", path: session.socket });
      assert.notEqual(connect.answer.text, "connected", `reached the session (${grant})`);
      assert.match(connect.answer.text, /ENOENT/);
    }
  },
});

Deno.test({
  name: "sandbox: a server launched with another HOME cannot reach the passwd home's sessions (A2)",
  ignore: NO_PASSWD_HOME,
  fn: async () => {
    await using home = await sessionHome();
    const real = PASSWD_HOME as string;
    const env = { HOME: real };
    await using session = await realSession(home, COUNTER, env, `${real}/.local/jn/sessions`);
    // A jn run with HOME pointing elsewhere (an agent's scratch HOME), granted the real home.
    const connect = await probe(home, real, { tool: "connect_socket", path: session.socket });
    assert.notEqual(connect.answer.text, "connected", "the sandboxed server reached the session");
    assert.match(connect.answer.text, /ENOENT/);
  },
});

Deno.test({
  name: "sandbox: the server of A1 cannot read outside its sandbox through a session (A3)",
  ignore: NO_RUNTIME,
  fn: async () => {
    await using home = await sessionHome();
    await using runtime = await useRuntime(RUNTIME as string);
    const secret = `${home.dir}/not-granted/secret.txt`;
    await Deno.mkdir(`${home.dir}/not-granted`);
    await Deno.writeTextFile(secret, "TOP-SECRET-OUTSIDE-THE-SANDBOX");
    const env = { XDG_RUNTIME_DIR: runtime.path };
    // The user keeps an (unsandboxed) session of a server that reads files (the probe).
    await using session = await realSession(home, SERVER, env, `${runtime.path}/jn`);
    // A hostile server, sandboxed, granted the runtime directory, launched by a jn without
    // XDG_RUNTIME_DIR, forwards a command of its own to the session.
    const hello = {
      argv: ["cat", "--json", `${SERVER}?${query({ tool: "read_file", path: secret })}`],
      cwd: home.dir,
      env: { HOME: home.home, XDG_RUNTIME_DIR: runtime.path, PATH: Deno.env.get("PATH") ?? "" },
      tty: { stdin: false, stdout: false, stderr: false },
    };
    const result = await home.jn([
      "cat",
      "--json",
      "--no-session",
      "--sandbox",
      "--sandbox-read",
      runtime.path,
      `mcp+node://${ESCAPER}?tool=escape`,
      "--args",
      JSON.stringify({ socket: session.socket, hello }),
    ]);
    const [line] = result.stdout.trim().split("\n");
    assert.ok(line, `no answer (${result.code}): ${result.stderr}`);
    const text = JSON.stringify(JSON.parse(line));
    assert.doesNotMatch(text, /TOP-SECRET/, `read outside the sandbox: ${text}`);
    assert.match(text, /ENOENT/);
  },
});
