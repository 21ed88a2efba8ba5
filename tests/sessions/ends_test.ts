/**
 * Each way a session ends on purpose leaves nothing behind: `session stop`,
 * the idle limit, SIGTERM and SIGHUP to the session's process — the
 * session's process, its server's process and its socket and record are
 * gone, and no note is left for later calls (they start the server afresh).
 *
 * @module
 */

import assert from "node:assert/strict";
import { waitGone } from "../session/tree_support.ts";
import { COUNTER, listed, output, sessionHome, sessionPid } from "./support.ts";

/** Starts a session of the counter and returns its pid and its server's. */
async function started(home: Awaited<ReturnType<typeof sessionHome>>, flags: string[] = []) {
  const start = await home.jn(["session", "start", ...flags, COUNTER]);
  assert.equal(start.code, 0, start.stderr);
  const server = output(await home.jn(["cat", "--json", `${COUNTER}?tool=increment`]))
    .pid as number;
  return { session: await sessionPid(home), server };
}

/** Nothing of the session left: processes, socket, record, note. */
async function nothingLeft(home: Awaited<ReturnType<typeof sessionHome>>, pids: number[]) {
  for (const pid of pids) assert.ok(await waitGone(pid, 15_000), `process ${pid} is gone`);
  const left = [...Deno.readDirSync(home.sessions)].map((entry) => entry.name)
    .filter((name) => /\.(sock|json|ended)$/.test(name));
  assert.deepEqual(left, []);
  assert.deepEqual(await listed(home), []);
  const text = await home.jn(["session", "list"]);
  assert.deepEqual([text.code, text.stdout, text.stderr], [0, "", "No sessions.\n"]);
  // A later call starts the server afresh.
  assert.equal(output(await home.jn(["cat", "--json", `${COUNTER}?tool=count`])).count, 0);
}

Deno.test("session: stop ends the session's process and its server's", async () => {
  await using home = await sessionHome();
  const { session, server } = await started(home);
  const stop = await home.jn(["session", "stop", COUNTER]);
  assert.equal(stop.code, 0, stop.stderr);
  assert.match(stop.stderr, new RegExp(`stopped the session of .* \\(pid ${session}\\)`));
  await nothingLeft(home, [session, server]);
  const again = await home.jn(["session", "stop", COUNTER]);
  assert.equal(again.code, 2);
  assert.match(again.stderr, /No session of .* runs\nhint: jn session list/);
});

Deno.test("session: the idle limit ends it", async () => {
  await using home = await sessionHome();
  const { session, server } = await started(home, ["--idle", "1500ms"]);
  const [entry] = await listed(home);
  assert.ok(typeof entry.idle_deadline === "string");
  await nothingLeft(home, [session, server]);
});

Deno.test("session: --idle 0 keeps it until stopped", async () => {
  await using home = await sessionHome();
  await started(home, ["--idle", "0"]);
  const [entry] = await listed(home);
  assert.equal(entry.idle_deadline, null);
});

for (const signal of ["SIGTERM", "SIGHUP"] as const) {
  Deno.test(`session: ${signal} to the session's process ends it`, async () => {
    await using home = await sessionHome();
    const { session, server } = await started(home);
    Deno.kill(session, signal);
    await nothingLeft(home, [session, server]);
  });
}

Deno.test("session: a session whose directory is removed ends with its server", async () => {
  await using home = await sessionHome();
  const { session, server } = await started(home);
  await Deno.remove(home.sessions, { recursive: true });
  assert.ok(await waitGone(session, 15_000), "the session's process ends");
  assert.ok(await waitGone(server, 15_000), "its server ends");
});
