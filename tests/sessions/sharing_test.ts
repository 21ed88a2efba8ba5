/**
 * One session, many jn commands: commands at once share the one server (its
 * state sees every one of them), a `put` with concurrency goes through it,
 * two `session start` at once give one session; what the server asks during
 * a call reaches the command that made it (its `--elicit`), and a question
 * outside any call is declined; a 2025 server's question while several
 * commands are in flight is declined, and each of them says so.
 *
 * @module
 */

import assert from "node:assert/strict";
import { COUNTER, listed, output, sessionHome, sessionPid } from "./support.ts";

Deno.test("session: commands at once share the one server", async () => {
  await using home = await sessionHome();
  assert.equal((await home.jn(["session", "start", COUNTER])).code, 0);
  const runs = await Promise.all([
    home.jn(["cat", "--json", `${COUNTER}?tool=slow&ms=800`]),
    ...Array.from({ length: 4 }, () => home.jn(["cat", "--json", `${COUNTER}?tool=increment`])),
  ]);
  const pids = new Set(runs.map((run) => output(run).pid));
  assert.equal(pids.size, 1, "one server for all");
  const counts = runs.slice(1).map((run) => output(run).count as number).sort();
  assert.deepEqual(counts, [1, 2, 3, 4]);
  const put = await home.jn(["put", "-c", "4", `${COUNTER}?tool=increment`], {
    stdin: Array.from({ length: 10 }, () => "{}").join("\n") + "\n",
  });
  assert.equal(put.code, 0, put.stderr);
  assert.equal(output(await home.jn(["cat", "--json", `${COUNTER}?tool=count`])).count, 14);
});

Deno.test("session: two starts at once give one session", async () => {
  await using home = await sessionHome();
  const [a, b] = await Promise.all([
    home.jn(["session", "start", COUNTER]),
    home.jn(["session", "start", COUNTER]),
  ]);
  assert.equal(a.code, 0, a.stderr);
  assert.equal(b.code, 0, b.stderr);
  const pid = await sessionPid(home);
  const said = [a.stderr, b.stderr].join("");
  assert.match(said, new RegExp(`started \\(pid ${pid}\\)`));
  assert.match(said, new RegExp(`already runs \\(pid ${pid}\\)`));
  assert.equal((await listed(home)).length, 1);
});

Deno.test("session: a question during a call goes to its command; outside any call it is declined", async () => {
  await using home = await sessionHome();
  assert.equal((await home.jn(["session", "start", COUNTER])).code, 0);
  const accepted = await home.jn([
    "cat",
    "--json",
    "--elicit",
    "accept-defaults",
    `${COUNTER}?tool=ask_name`,
  ]);
  assert.deepEqual(output(accepted).result, { action: "accept", content: { name: "anonymous" } });
  assert.match(accepted.stderr, /asked: Your name\? — accepted the defaults/);
  const declined = await home.jn([
    "cat",
    "--json",
    "--elicit",
    "decline",
    `${COUNTER}?tool=ask_name`,
  ]);
  assert.deepEqual(output(declined).result, { action: "decline" });
  assert.equal((await home.jn(["cat", `${COUNTER}?tool=ask_later&ms=100`])).code, 0);
  // The question comes after that command ended, and no other waits: declined.
  let answer = "";
  for (let i = 0; i < 40 && answer !== "decline"; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    answer = JSON.parse(
      output(await home.jn(["cat", `${COUNTER}?tool=late_answer`])).text as string,
    );
  }
  assert.equal(answer, "decline");
});

Deno.test("session: a 2025 server's question while two commands are in flight is declined, and both say so", async () => {
  await using home = await sessionHome();
  assert.equal((await home.jn(["session", "start", COUNTER])).code, 0);
  const slow = home.jn(["cat", "--json", `${COUNTER}?tool=slow&ms=3000`]);
  // The slow call is in flight before the question is asked.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const asking = await home.jn([
    "cat",
    "--json",
    "--elicit",
    "accept-defaults",
    `${COUNTER}?tool=ask_name`,
  ]);
  const waited = await slow;
  assert.deepEqual(output(asking).result, { action: "decline" });
  assert.equal(waited.code, 0, waited.stderr);
  const said =
    /^jn: the server counter\.mjs asked elicitation\/create while several jn commands used its session; declined: /m;
  assert.match(asking.stderr, said);
  assert.match(waited.stderr, said);
  assert.doesNotMatch(asking.stderr, /asked: Your name\?/);
  // Alone, the same command is asked.
  const alone = await home.jn([
    "cat",
    "--json",
    "--elicit",
    "accept-defaults",
    `${COUNTER}?tool=ask_name`,
  ]);
  assert.deepEqual(output(alone).result, { action: "accept", content: { name: "anonymous" } });
});
