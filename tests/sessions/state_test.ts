/**
 * What a session is for: a server whose state lives only in its process
 * keeps it across separate jn processes through a session, and loses it
 * without one — the counter fixture, and a real npm server that keeps its
 * state in memory (server-sequential-thinking: its thought history). Every
 * command goes through the session unchanged: inspect, cat, head, complete
 * and `--follow` (the demo server's ticker).
 *
 * @module
 */

import assert from "node:assert/strict";
import { npmServer } from "../remote/support.ts";
import { COUNTER, output, sessionHome, sessionPid } from "./support.ts";

Deno.test("session: the counter's state is kept across jn processes, and lost without a session", async () => {
  await using home = await sessionHome();
  const fresh = output(await home.jn(["cat", "--json", `${COUNTER}?tool=increment`]));
  assert.equal(fresh.count, 1);
  const started = await home.jn(["session", "start", COUNTER]);
  assert.equal(started.code, 0, started.stderr);
  assert.equal(started.stdout, "", "start prints nothing on stdout");
  assert.match(started.stderr, /session of .*counter\.mjs started \(pid \d+\)/);
  const first = output(await home.jn(["cat", "--json", `${COUNTER}?tool=increment`]));
  const second = output(await home.jn(["cat", "--json", `${COUNTER}?tool=increment&by=5`]));
  assert.equal(first.count, 1);
  assert.equal(second.count, 6);
  assert.equal(second.pid, first.pid, "one server process");
  // --no-session starts a server of its own: state from zero.
  const bypass = output(await home.jn(["cat", "--json", "--no-session", `${COUNTER}?tool=count`]));
  assert.equal(bypass.count, 0);
  assert.notEqual(bypass.pid, first.pid);
  const listed = await home.jn(["session", "list", "--format", "json"]);
  const entry = JSON.parse(listed.stdout.trim());
  assert.equal(entry.source, COUNTER);
  assert.equal(entry.calls, 2);
  assert.equal(entry.sandboxed, false);
  assert.equal(entry.pid, await sessionPid(home));
  const stopped = await home.jn(["session", "stop", COUNTER]);
  assert.equal(stopped.code, 0, stopped.stderr);
  // After stop, a call starts the server afresh.
  const after = output(await home.jn(["cat", "--json", `${COUNTER}?tool=count`]));
  assert.equal(after.count, 0);
});

const THINKING = await npmServer("@modelcontextprotocol/server-sequential-thinking", "2026.8.31");

Deno.test({
  name:
    "session: a real npm server's in-memory state (server-sequential-thinking) is kept through a session",
  ignore: THINKING === undefined,
}, async () => {
  const script = THINKING!;
  const source = `mcp+node://${script}`;
  const think = (n: number) => [
    "cat",
    "--json",
    `${source}?tool=sequentialthinking`,
    "--args",
    JSON.stringify({
      thought: `step ${n}`,
      thoughtNumber: n,
      totalThoughts: 3,
      nextThoughtNeeded: true,
    }),
  ];
  await using home = await sessionHome();
  assert.equal(output(await home.jn(think(1))).thoughtHistoryLength, 1);
  assert.equal(output(await home.jn(think(2))).thoughtHistoryLength, 1, "no session: forgotten");
  assert.equal((await home.jn(["session", "start", source])).code, 0);
  assert.equal(output(await home.jn(think(1))).thoughtHistoryLength, 1);
  assert.equal(output(await home.jn(think(2))).thoughtHistoryLength, 2);
  assert.equal(output(await home.jn(think(3))).thoughtHistoryLength, 3);
});

Deno.test("session: inspect, head, complete and --follow go through it unchanged (@demo)", async () => {
  await using home = await sessionHome();
  const direct = await home.jn(["inspect", "@demo", "--format", "json"]);
  assert.equal((await home.jn(["session", "start", "@demo"])).code, 0);
  const through = await home.jn(["inspect", "@demo", "--format", "json", "--debug"]);
  assert.equal(through.code, 0, through.stderr);
  assert.match(through.stderr, /jn: debug: through the session of @demo \(pid \d+/);
  const [a, b] = [JSON.parse(direct.stdout), JSON.parse(through.stdout)];
  const keys = ["tools", "resources", "resource_templates", "prompts", "capabilities"];
  for (const key of [...keys, "protocolVersion", "serverInfo", "instructions"]) {
    assert.deepEqual(b[key], a[key], key);
  }
  const head = await home.jn(["head", "-n", "2", "--json", "@demo/list_items?count=50"]);
  assert.equal(head.stdout.trim().split("\n").length, 2);
  const completed = await home.jn(["complete", "@demo?prompt=summarize", "topic", "mc"]);
  assert.equal(completed.code, 0, completed.stderr);
  assert.match(completed.stdout, /"type":"completion"/);
  const followed = await home.jn([
    "cat",
    "@demo?resource=demo://ticker",
    "--follow",
    "--timeout",
    "2500ms",
  ]);
  assert.equal(followed.code, 0, followed.stderr);
  const versions = new Set(
    followed.stdout.trim().split("\n").map((line) => JSON.parse(line).version),
  );
  assert.ok(versions.size >= 2, `several versions: ${followed.stdout}`);
});
