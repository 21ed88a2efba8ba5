/**
 * When a session ends by itself — its server dies, or its own process is
 * killed — the call in flight fails as it would without a session (exit 4),
 * later calls of the source fail too (exit 4, saying the state is gone and
 * what to do) instead of silently starting a server without it, and nothing
 * blocks the next start: no stale socket, no process left.
 *
 * @module
 */

import assert from "node:assert/strict";
import { waitGone } from "../session/tree_support.ts";
import { COUNTER, listed, output, sessionHome, sessionPid } from "./support.ts";

Deno.test("session: its server dies: the call exits 4, later calls exit 4 with a hint, start again works", async () => {
  await using home = await sessionHome();
  assert.equal((await home.jn(["session", "start", COUNTER])).code, 0);
  const session = await sessionPid(home);
  const died = await home.jn(["cat", `${COUNTER}?tool=die`]);
  assert.equal(died.code, 4, died.stderr);
  assert.match(died.stderr, /exited with code 3 during tools\/call "die"/);
  assert.ok(await waitGone(session, 15_000), "the session's process ends");
  const later = await home.jn(["cat", `${COUNTER}?tool=count`]);
  assert.equal(later.code, 4, later.stderr);
  assert.match(later.stderr, /The session of .* ended at .*: its server ended: .*state is gone/);
  assert.match(later.stderr, /hint: start it again \(jn session start mcp\+node:/);
  const [entry] = await listed(home);
  assert.equal(entry.state, "ended");
  // --no-session calls without it; a new start forgets the note.
  assert.equal((await home.jn(["cat", "--no-session", `${COUNTER}?tool=count`])).code, 0);
  assert.equal((await home.jn(["session", "start", COUNTER])).code, 0);
  assert.equal(output(await home.jn(["cat", "--json", `${COUNTER}?tool=count`])).count, 0);
});

Deno.test("session: a SIGKILLed session leaves no stale socket: its server ends, calls say so, start works", async () => {
  await using home = await sessionHome();
  assert.equal((await home.jn(["session", "start", COUNTER])).code, 0);
  const server = output(await home.jn(["cat", "--json", `${COUNTER}?tool=increment`]))
    .pid as number;
  const session = await sessionPid(home);
  Deno.kill(session, "SIGKILL");
  assert.ok(await waitGone(session), "killed");
  // The server reads its stdin's end and exits (a sandboxed one: bubblewrap's die-with-parent).
  assert.ok(await waitGone(server, 15_000), "its server ends");
  const call = await home.jn(["cat", `${COUNTER}?tool=count`]);
  assert.equal(call.code, 4, call.stderr);
  assert.match(call.stderr, /its process is gone \(killed or crashed\)/);
  const left = [...Deno.readDirSync(home.sessions)].filter((entry) => entry.name.endsWith(".sock"));
  assert.deepEqual(left, [], "no stale socket");
  assert.equal((await home.jn(["session", "start", COUNTER])).code, 0);
  assert.equal(output(await home.jn(["cat", "--json", `${COUNTER}?tool=increment`])).count, 1);
});

Deno.test("session: a start right after a SIGKILL is not blocked by the stale socket", async () => {
  await using home = await sessionHome();
  assert.equal((await home.jn(["session", "start", COUNTER])).code, 0);
  const session = await sessionPid(home);
  Deno.kill(session, "SIGKILL");
  assert.ok(await waitGone(session), "killed");
  const again = await home.jn(["session", "start", COUNTER]);
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stderr, /started \(pid \d+\)/);
  assert.notEqual(await sessionPid(home), session);
});
