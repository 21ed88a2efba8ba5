/**
 * A sampling command leaves nothing running: what it started (a pipeline, a
 * background job) ends with it when jn gives up on the request (timeout,
 * Ctrl-C) and when it exits on its own.
 */
import assert from "node:assert/strict";
import { FIXTURES, parseNdjson, runJn, tempDir } from "../helpers.ts";

const ASKER = `mcp+node://${FIXTURES}/servers/asker.mjs?tool=ask_sample`;

/** Whether a process runs (a zombie does not); waits up to 2 s for it to go. */
async function alive(pid: number): Promise<boolean> {
  for (let i = 0; i < 40; i++) {
    let stat: string;
    try {
      stat = await Deno.readTextFile(`/proc/${pid}/stat`);
    } catch {
      return false;
    }
    if (stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z")) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}

Deno.test("sampling command: nothing it started outlives it", async (t) => {
  const dir = await tempDir();
  const left: number[] = [];
  try {
    await t.step("jn gives up (timeout): the command's background job is ended", async () => {
      const { code, stderr } = await runJn([
        "cat",
        ASKER,
        "--timeout",
        "1s",
        "--sampling-command",
        "sleep 300 & echo $! > waiting.pid; wait",
      ], { cwd: dir, timeoutMs: 30_000 });
      assert.equal(code, 4, stderr);
      const pid = Number(await Deno.readTextFile(`${dir}/waiting.pid`));
      left.push(pid);
      assert.equal(await alive(pid), false, "the sampling command's child outlived jn");
    });

    await t.step("the command exits leaving a job behind: answered, job ended", async () => {
      const { code, stdout, stderr } = await runJn([
        "cat",
        ASKER,
        "--timeout",
        "20s",
        "--sampling-command",
        "sleep 300 & echo $! > left.pid; echo answer",
      ], { cwd: dir, timeoutMs: 30_000 });
      assert.equal(code, 0, stderr);
      const answer = JSON.parse(String((parseNdjson(stdout)[0] as { text: string }).text));
      assert.equal(answer.result.content.text, "answer");
      const pid = Number(await Deno.readTextFile(`${dir}/left.pid`));
      left.push(pid);
      assert.equal(await alive(pid), false, "the sampling command's job outlived it");
    });
  } finally {
    for (const pid of left) {
      try {
        Deno.kill(pid, "SIGKILL");
      } catch { /* gone, as it should be */ }
    }
    await Deno.remove(dir, { recursive: true });
  }
});
