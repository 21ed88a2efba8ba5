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
import { COUNTER, type SessionHome, sessionHome } from "../sessions/support.ts";

const NO_BWRAP = await requireBwrap("tests/security/sandbox_sessions_test.ts");
const SERVER = `mcp+node://${PROBE}`;

/** The socket of the one session in `dir`, checked to take connections from outside. */
async function socketIn(dir: string): Promise<string> {
  const names = [...Deno.readDirSync(dir)].map((entry) => entry.name);
  const sockets = names.filter((name) => name.endsWith(".sock"));
  assert.equal(sockets.length, 1, names.join(" "));
  const socket = `${dir}/${sockets[0]}`;
  (await Deno.connect({ transport: "unix", path: socket })).close();
  return socket;
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
