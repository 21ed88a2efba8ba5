/**
 * A sampling command leaves nothing running: what it started (a pipeline, a
 * background job) ends with it when jn gives up on the request (timeout,
 * Ctrl-C) and when it exits on its own. A server that floods jn with
 * sampling requests gets the excess refused, and the user one warning.
 */
import assert from "node:assert/strict";
import { open } from "../../mod.ts";
import { baseEnv, FIXTURES, jnArgs, parseNdjson, runJn, tempDir } from "../helpers.ts";
import { waitGone } from "../session/tree_support.ts";

const ASKER = `mcp+node://${FIXTURES}/servers/asker.mjs?tool=ask_sample`;

/** Whether a process runs (a zombie does not); waits up to 2 s for it to go. */
async function alive(pid: number): Promise<boolean> {
  return !(await waitGone(pid, 2000));
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

const FLOOD = `mcp+node://${FIXTURES}/servers/asker.mjs?tool=flood_sample`;

/** What the flood_sample tool saw: answered count, refusal codes and messages. */
interface Flood {
  answered: number;
  codes: number[];
  messages: string[];
}

Deno.test("a flood of sampling requests: a few are answered, the rest refused, one warning", async () => {
  const dir = await tempDir();
  try {
    const { code, stdout, stderr } = await runJn([
      "cat",
      FLOOD,
      "--timeout",
      "30s",
      "--sampling-command",
      "cat >/dev/null; sleep 0.2; echo n >> runs; echo ok",
    ], { cwd: dir, timeoutMs: 60_000 });
    assert.equal(code, 0, stderr);
    const flood = JSON.parse(String((parseNdjson(stdout)[0] as { text: string }).text)) as Flood;
    // One runs, eight wait: the other 31 are refused at once.
    assert.ok(flood.answered >= 1 && flood.answered <= 9, JSON.stringify(flood));
    assert.deepEqual(flood.codes, [-1]);
    assert.equal(flood.messages.length, 1);
    assert.match(flood.messages[0], /too many sampling requests at once/);
    const runs = (await Deno.readTextFile(`${dir}/runs`)).trim().split("\n").length;
    assert.equal(runs, flood.answered);
    const warnings = stderr.split("\n").filter((line) => /sampling/.test(line));
    assert.equal(warnings.length, 1, stderr);
    assert.match(
      warnings[0],
      /^jn: the server sent more sampling requests than jn answers at once/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("open({ sample }): a flood reaches the callback a few at a time, one notice", async () => {
  const notices: string[] = [];
  let running = 0;
  let most = 0;
  let calls = 0;
  const conn = await open(FLOOD, {
    cwd: Deno.cwd(),
    env: {},
    events: { onNotice: (message) => void notices.push(message) },
    sample: async () => {
      calls++;
      most = Math.max(most, ++running);
      await new Promise((resolve) => setTimeout(resolve, 100));
      running--;
      return { role: "assistant", content: { type: "text", text: "ok" }, model: "m" };
    },
  });
  try {
    const result = await conn.session.callTool("flood_sample", {});
    const flood = JSON.parse(String(result.content[0].text)) as Flood;
    assert.equal(flood.answered, calls);
    assert.ok(calls <= 12, `the callback ran ${calls} times`);
    assert.ok(most <= 4, `${most} ran at once`);
    assert.deepEqual(flood.codes, [-1]);
    assert.equal(notices.length, 1, notices.join("\n"));
  } finally {
    await conn.close();
  }
});

Deno.test("a sampling command that ignores SIGTERM is killed when jn gives up", async () => {
  const dir = await tempDir();
  let pid = 0;
  try {
    const conn = await open(`mcp+node://${FIXTURES}/servers/asker.mjs?tool=ask_sample`, {
      cwd: dir,
      env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" },
      samplingCommand: "trap '' TERM; echo $$ > sh.pid; while :; do sleep 0.05; done",
    });
    const call = conn.session.callTool("ask_sample", {}).catch(() => {});
    for (let i = 0; i < 100 && pid === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      pid = Number(await Deno.readTextFile(`${dir}/sh.pid`).catch(() => "0"));
    }
    assert.ok(pid > 0, "the sampling command did not start");
    await conn.close();
    await call;
    assert.equal(await alive(pid), false, "the sampling command outlived the connection");
  } finally {
    if (pid > 0) {
      try {
        Deno.kill(pid, "SIGKILL");
      } catch { /* gone, as it should be */ }
    }
    await Deno.remove(dir, { recursive: true });
  }
});

for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) {
  Deno.test(`jn ended by ${signal} during a sampling command that ignores it: the command goes too`, async () => {
    const dir = await tempDir();
    let pid = 0;
    const jn = new Deno.Command(Deno.execPath(), {
      args: jnArgs([
        "cat",
        `mcp+node://${FIXTURES}/servers/asker.mjs?tool=ask_sample`,
        "--sampling-command",
        "trap '' TERM INT HUP; echo $$ > sh.pid; while :; do sleep 0.05; done",
      ]),
      cwd: dir,
      env: baseEnv(),
      clearEnv: true,
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn();
    try {
      for (let i = 0; i < 400 && pid === 0; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        pid = Number(await Deno.readTextFile(`${dir}/sh.pid`).catch(() => "0"));
      }
      assert.ok(pid > 0, "the sampling command did not start");
      jn.kill(signal);
      const status = await jn.status;
      assert.notEqual(status.code, 0);
      assert.equal(await alive(pid), false, `the sampling command outlived jn (${signal})`);
    } finally {
      try {
        jn.kill("SIGKILL");
      } catch { /* ended */ }
      if (pid > 0) {
        try {
          Deno.kill(pid, "SIGKILL");
        } catch { /* gone, as it should be */ }
      }
      await Deno.remove(dir, { recursive: true });
    }
  });
}

Deno.test("a flood of sampling requests without a sampling command: refused, one notice", async () => {
  const { code, stdout, stderr } = await runJn(["cat", FLOOD], { timeoutMs: 60_000 });
  assert.equal(code, 0, stderr);
  const flood = JSON.parse(String((parseNdjson(stdout)[0] as { text: string }).text)) as Flood;
  assert.equal(flood.answered, 0);
  assert.deepEqual(flood.codes, [-32601]);
  assert.equal(
    stderr,
    "jn: the server asked for an LLM completion (sampling/createMessage); declined: no sampling " +
      "command is set (--sampling-command CMD, or the profile's sampling_command)\n",
  );
});
