/**
 * `jn cat --follow`, black-box: a resource printed again on every update
 * (the demo server's `demo://ticker`, both eras: `resources/subscribe` …
 * `resources/unsubscribe` in 2025, a `subscriptions/listen` stream in
 * 2026-07-28), a list printed again on every `list_changed` (the changer
 * fixture), the end by Ctrl-C (exit 130, subscription ended, no server left)
 * or by an explicit `--timeout` (exit 0), and the usage errors.
 */
import assert from "node:assert/strict";
import { FIXTURES, runJnHere, tempDir } from "../helpers.ts";
import { spawnJn, waitGone } from "../session/tree_support.ts";

const CHANGER = `mcp+node://${FIXTURES}/servers/changer.mjs`;

type Rec = Record<string, unknown>;

/**
 * Starts `jn ARGS…` and resolves once stdout holds a record of `version`;
 * stdout is read on to its end (jn must not see its reader go away).
 */
async function followUntil(args: string[], version: number) {
  const child = spawnJn(args);
  let text = "";
  let wake = () => {};
  const records = () =>
    text.split("\n").filter((line) => line.trim() !== "").map((l) => JSON.parse(l) as Rec);
  const reading = child.stdout.pipeThrough(new TextDecoderStream()).pipeTo(
    new WritableStream({
      write(chunk) {
        text += chunk;
        wake();
      },
    }),
  ).finally(() => wake());
  let ended = false;
  void reading.then(() => ended = true, () => ended = true);
  while (!records().some((r) => r.version === version) && !ended) {
    await new Promise<void>((resolve) => wake = resolve);
  }
  return { child, records, reading };
}

for (const protocol of ["legacy", "auto"]) {
  Deno.test(`--follow on a resource prints each version until Ctrl-C (protocol ${protocol})`, async () => {
    const { child, records, reading } = await followUntil([
      "--debug",
      "cat",
      "@demo?resource=demo://ticker",
      "--follow",
      "--protocol",
      protocol,
    ], 3);
    child.kill("SIGINT");
    const [status, stderr] = await Promise.all([
      child.status,
      new Response(child.stderr).text(),
    ]);
    assert.equal(status.code, 130, stderr);
    await reading;
    const seen = records();
    assert.deepEqual(seen.slice(0, 3).map((r) => [r.type, r.uri, r.version]), [
      ["resource_content", "demo://ticker", 1],
      ["resource_content", "demo://ticker", 2],
      ["resource_content", "demo://ticker", 3],
    ]);
    const ticks = seen.map((r) => Number(String(r.text).replace("tick ", "")));
    assert.deepEqual(ticks, [...ticks].sort((a, b) => a - b), "ticks only grow");
    if (protocol === "legacy") {
      assert.match(stderr, /→ .*"method":"resources\/subscribe"/);
      assert.match(stderr, /→ .*"method":"resources\/unsubscribe"/);
    } else {
      assert.match(stderr, /→ .*"method":"subscriptions\/listen"/);
      assert.match(stderr, /→ .*"method":"notifications\/cancelled"/);
    }
  });
}

Deno.test("--follow on a list prints it again on each list_changed; no server survives", async () => {
  const dir = await tempDir();
  const pidFile = `${dir}/pid`;
  try {
    const { child, records, reading } = await followUntil([
      "cat",
      `${CHANGER}?list=tools&command=--pid-file&command=${pidFile}`,
      "--follow",
    ], 3);
    child.kill("SIGINT");
    const [status, stderr] = await Promise.all([child.status, new Response(child.stderr).text()]);
    assert.equal(status.code, 130, stderr);
    await reading;
    assert.deepEqual(records().map((r) => [r.version, r.name]), [
      [1, "tool1"],
      [2, "tool1"],
      [2, "tool2"],
      [3, "tool1"],
      [3, "tool2"],
      [3, "tool3"],
    ]);
    const pid = Number(await Deno.readTextFile(pidFile));
    assert.ok(await waitGone(pid, 5000), `server ${pid} survived`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

// The rest runs jn in-process: how --follow ends or refuses, not the process, is tested.
Deno.test("--follow ends after an explicit --timeout with exit 0", async () => {
  const { code, stdout, stderr } = await runJnHere([
    "cat",
    `${CHANGER}?list=tools&command=--max&command=1`,
    "--follow",
    "--timeout",
    "1s",
  ]);
  assert.equal(code, 0, stderr);
  assert.deepEqual(
    stdout.trim().split("\n").map((line) => JSON.parse(line).version),
    [1],
  );
});

Deno.test("--follow: what cannot be followed", async (t) => {
  await t.step("a tool call is a usage error before any server starts", async () => {
    const { code, stderr } = await runJnHere(["cat", "@demo/echo?text=x", "--follow"]);
    assert.equal(code, 2);
    assert.match(stderr, /--follow needs a resource or a list, not a tool call \(echo\)/);
  });
  await t.step("a task's result is named as such, before any server starts", async () => {
    const { code, stderr } = await runJnHere(["cat", "@demo?task=t1", "--follow"]);
    assert.equal(code, 2);
    assert.match(stderr, /--follow needs a resource or a list, not a task's result \(t1\)/);
  });
  await t.step("a list the server does not announce changes of is exit 5", async () => {
    const { code, stderr } = await runJnHere(["cat", `${CHANGER}?list=resources`, "--follow"]);
    assert.equal(code, 5);
    assert.match(stderr, /does not announce changes of its resources/);
  });
  await t.step("a resource of a server without subscriptions is exit 5", async () => {
    const { code, stderr } = await runJnHere(["cat", `${CHANGER}?resource=x://y`, "--follow"]);
    assert.equal(code, 5);
    assert.match(stderr, /does not offer resource subscriptions/);
  });
});
