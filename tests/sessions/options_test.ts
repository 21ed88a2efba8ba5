/**
 * A call goes through a session only when its launch-shaping options are
 * the session's: with others (a sandbox, a variable passed through), it
 * says so in one notice and starts its own server; `--no-session` bypasses
 * the session silently; `--debug` names the session a call went through; a
 * start with other options while a session runs is refused. A stdio
 * server's task can be detached and collected only through a session.
 *
 * @module
 */

import assert from "node:assert/strict";
import { COUNTER, output, sessionHome, sessionPid } from "./support.ts";

Deno.test("session: a call with other launch options says so once and starts its own server", async () => {
  await using home = await sessionHome();
  assert.equal((await home.jn(["session", "start", COUNTER])).code, 0);
  const through = output(await home.jn(["cat", "--json", `${COUNTER}?tool=increment`]));
  const other = await home.jn(
    ["cat", "--json", "--env-passthrough", "SOME_VAR", `${COUNTER}?tool=increment`],
    { env: { SOME_VAR: "x" } },
  );
  assert.equal(output(other).count, 1, "a server of its own");
  assert.notEqual(output(other).pid, through.pid);
  const notices = other.stderr.split("\n").filter((line) => line.includes("session"));
  assert.deepEqual(notices, [
    "jn: a session of node " + COUNTER.slice("mcp+node://".length) +
    " runs with other launch options; not using it: the environment passed through differs",
  ]);
  // The session was not touched by it.
  assert.equal(output(await home.jn(["cat", "--json", `${COUNTER}?tool=count`])).count, 1);
});

Deno.test("session: --no-session bypasses it silently; --debug names it", async () => {
  await using home = await sessionHome();
  assert.equal((await home.jn(["session", "start", COUNTER])).code, 0);
  const pid = await sessionPid(home);
  const bypass = await home.jn(["cat", "--json", "--no-session", `${COUNTER}?tool=increment`]);
  assert.equal(output(bypass).count, 1);
  assert.doesNotMatch(bypass.stderr, /session/);
  const debug = await home.jn(["cat", "--json", "--debug", `${COUNTER}?tool=increment`]);
  assert.equal(output(debug).count, 1);
  assert.match(
    debug.stderr,
    new RegExp(`jn: debug: through the session of mcp\\+node:\\S+ \\(pid ${pid}, started `),
  );
  assert.match(
    debug.stderr,
    /connected to counter 1\.0\.0 \(protocol 2025-11-25, legacy, session\)/,
  );
});

Deno.test("session: a start with other options while one runs is refused (exit 2)", async () => {
  await using home = await sessionHome();
  assert.equal((await home.jn(["session", "start", COUNTER])).code, 0);
  const other = await home.jn(["session", "start", "--protocol", "legacy", COUNTER]);
  assert.equal(other.code, 2, other.stderr);
  assert.match(
    other.stderr,
    /already runs with other launch options: the protocol differs\nhint: stop it first/,
  );
  const operation = await home.jn(["session", "start", `${COUNTER}?tool=count`]);
  assert.equal(operation.code, 2);
  assert.match(operation.stderr, /holds a server, not an operation/);
});

Deno.test("session: --detach of a stdio server needs a session; its task is collected through it", async () => {
  await using home = await sessionHome();
  const refused = await home.jn(["cat", "--detach", `${COUNTER}?tool=tally`]);
  assert.equal(refused.code, 2);
  assert.match(refused.stderr, /--detach needs a remote server or a session/);
  assert.match(refused.stderr, /hint: .*jn session start mcp\+node:/);
  assert.equal((await home.jn(["session", "start", COUNTER])).code, 0);
  const detached = output(await home.jn(["cat", "--detach", `${COUNTER}?tool=tally&ms=400`]));
  assert.equal(detached.type, "task");
  assert.equal(detached.status, "working");
  assert.match(detached.source as string, /\?tool=tally&task=task-\d+$/);
  const collected = output(await home.jn(["cat", detached.source as string]));
  assert.deepEqual(JSON.parse(collected.text as string).count, 1);
});
