/**
 * Tasks (2025-11-25, SEP-1686) end to end: the tasks fixture over HTTP
 * (optional, required and forbidden tools, a failed task, cancel on timeout
 * and Ctrl-C, --detach and `?task=ID`), and server-everything's
 * `simulate-research-query` over stdio and HTTP (a required task with status
 * messages, `input_required` answered through the elicitation handler, and
 * a detached task resumed in the HTTP session it lives in).
 *
 * @module
 */

import assert from "node:assert/strict";
import { permissionFlags } from "../../lib/sandbox/permissions.ts";
import { baseEnv, MAIN, parseNdjson, ROOT, runJn, runJnHere, tempDir } from "../helpers.ts";
import { serverEverything, startFixture, startNodeServer } from "./support.ts";
import { call, cat, open, type TaskInfo } from "../../mod.ts";
import { awaitTask } from "../../mod/tasks.ts";

type Rec = Record<string, unknown> & { type: string };

/** `jn cat ARGS…` in this process (what is tested is the command, not the process). */
async function catJn(args: string[]) {
  const result = await runJnHere(["cat", ...args], { timeoutMs: 30_000 });
  return { ...result, records: parseNdjson(result.stdout) as Rec[] };
}

/** `jn cat ARGS…` as its own process: several at once (each runs seconds, mostly waiting). */
async function catJnProcess(args: string[]) {
  const result = await runJn(["cat", ...args], { timeoutMs: 30_000 });
  return { ...result, records: parseNdjson(result.stdout) as Rec[] };
}

/** `promise`, or a failure naming `what` after 30 s (a lost event fails instead of hanging). */
async function bounded<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) =>
        timer = setTimeout(() => reject(new Error(`never saw ${what}`)), 30_000)
      ),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** The library's tasks: call() with `task`, cat() with `detach`, awaitTask() on its id. */
async function libraryTasks(base: string, home: string): Promise<void> {
  const options = { cwd: ROOT, env: { HOME: home } };
  await using conn = await open(`${base}?tool=count&steps=2`, options);
  const seen: TaskInfo[] = [];
  const result = await call(conn, "count", { steps: 2 }, {
    task: true,
    onTaskStatus: (task) => seen.push(task),
  });
  assert.equal(result.content[0].text, "counted 2 (task)");
  assert.equal(seen.at(-1)?.status, "completed");
  const { records } = await cat(conn, { args: { steps: 3 }, detach: true });
  const record = records[0] as Rec;
  assert.equal(record.type, "task");
  const later = await awaitTask(conn, String(record.taskId));
  assert.equal(later.content[0].text, "counted 3 (task)");
}

Deno.test("tasks against the tasks fixture over HTTP", async (t) => {
  const server = await startFixture("tasks_server.ts");
  const base = `mcp+${server.url}/mcp`;
  try {
    await t.step("an optional tool runs plainly unless --task asks for a task", async () => {
      const plain = await catJn([`${base}?tool=count&steps=2`]);
      assert.equal(plain.code, 0, plain.stderr);
      assert.equal(plain.records[0].text, "counted 2 (direct)");
      const task = await catJn([`${base}?tool=count&steps=2`, "--task", "--progress"]);
      assert.equal(task.code, 0, task.stderr);
      assert.deepEqual(task.records.map((r) => [r.type, r.tool, r.content_type, r.text]), [
        ["tool_result", "count", "text", "counted 2 (task)"],
      ]);
      assert.match(task.stderr, /count: task [0-9a-f-]+ working: step 1\/2\n/);
      assert.match(task.stderr, /count: task [0-9a-f-]+ completed: done\n/);
    });

    await t.step("--task on a tool that forbids tasks is a usage error", async () => {
      const { code, stderr } = await catJn([`${base}?tool=plain`, "--task"]);
      assert.equal(code, 2, stderr);
      assert.match(stderr, /Tool "plain" cannot be called as a task/);
      assert.doesNotMatch(server.stderr(), /plain call with task/);
    });

    await t.step("a failed task gives its isError result and exit 1", async () => {
      const { code, records, stderr } = await catJn([`${base}?tool=fail`]);
      assert.equal(code, 1, stderr);
      assert.equal(records[0].text, "it failed");
      assert.equal(records[0].isError, true);
    });

    await t.step("put runs a tool that requires a task as one task per line", async () => {
      const before = [...server.stderr().matchAll(/created [0-9a-f-]+ fail\n/g)].length;
      const { code, stdout, stderr } = await runJnHere(["put", `${base}?tool=fail`], {
        stdin: "{}\n{}\n",
        timeoutMs: 30_000,
      });
      assert.equal(code, 1, stderr);
      const records = parseNdjson(stdout) as Rec[];
      assert.deepEqual(records.map((r) => [r.input, r.kind]), [[1, "tool_error"], [
        2,
        "tool_error",
      ]]);
      assert.equal([...server.stderr().matchAll(/created [0-9a-f-]+ fail\n/g)].length, before + 2);
    });

    await t.step("a timeout cancels the task (tasks/cancel) and exits 4", async () => {
      const { code, stderr } = await catJn([`${base}?tool=forever`, "--timeout", "300ms"]);
      assert.equal(code, 4, stderr);
      assert.match(stderr, /Timed out after \d+ms waiting for task "([0-9a-f-]+)" to finish/);
      const id = stderr.match(/task "([0-9a-f-]+)"/)![1];
      await bounded(server.stderrMatches(new RegExp(`cancelled ${id}`)), `tasks/cancel of ${id}`);
    });

    await t.step("Ctrl-C while the task is created still cancels it, and exits 130", async () => {
      const child = new Deno.Command(Deno.execPath(), {
        // The server holds its answer back for a second after the task exists: the interrupt
        // lands while jn does not know the task yet.
        args: ["run", ...permissionFlags(), MAIN, "cat", `${base}?tool=forever&delay_ms=1000`],
        cwd: ROOT,
        env: baseEnv(),
        clearEnv: true,
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
      }).spawn();
      const killer = setTimeout(() => child.kill("SIGKILL"), 20_000);
      // The timeout step created one "forever" task already; wait for the second.
      await bounded(
        server.stderrMatches(/created [0-9a-f-]+ forever\n[^]*created [0-9a-f-]+ forever\n/),
        "the second forever task",
      );
      const id = [...server.stderr().matchAll(/created ([0-9a-f-]+) forever/g)][1][1];
      child.kill("SIGINT");
      const output = await child.output();
      clearTimeout(killer);
      const stderr = new TextDecoder().decode(output.stderr);
      assert.equal(output.code, 130, stderr);
      await bounded(server.stderrMatches(new RegExp(`cancelled ${id}`)), `tasks/cancel of ${id}`);
    });

    await t.step(
      "--detach prints the task record; cat SOURCE?task=ID gives its result",
      async () => {
        const detached = await catJn([`${base}?tool=count&steps=5&delay_ms=100`, "--detach"]);
        assert.equal(detached.code, 0, detached.stderr);
        assert.equal(detached.records.length, 1);
        const record = detached.records[0];
        assert.equal(record.type, "task");
        assert.equal(record.tool, "count");
        assert.equal(record.status, "working");
        assert.equal(record.source, `${base}?tool=count&task=${record.taskId}`);
        const resumed = await catJn([String(record.source)]);
        assert.equal(resumed.code, 0, resumed.stderr);
        assert.deepEqual(resumed.records.map((r) => [r.tool, r.text]), [
          ["count", "counted 5 (task)"],
        ]);
        const bare = await catJn([`${base}?task=${record.taskId}`, "--json"]);
        assert.equal(bare.code, 0, bare.stderr);
        assert.equal(bare.records[0].text, "counted 5 (task)");
      },
    );

    await t.step("library: call() with task, cat() with detach, awaitTask()", async () => {
      // A private HOME: OAuth state of remote servers would go there.
      const home = await tempDir();
      try {
        await libraryTasks(base, home);
      } finally {
        await Deno.remove(home, { recursive: true });
      }
    });

    await t.step("?task=ID takes no arguments; --task needs a tool", async () => {
      const args = await catJn([`${base}?task=x&steps=3`]);
      assert.equal(args.code, 2);
      assert.match(args.stderr, /Arguments are not used with task=: steps/);
      const list = await catJn([`${base}?list=tools`, "--task"]);
      assert.equal(list.code, 2);
      assert.match(list.stderr, /--task applies to tool calls only/);
    });
  } finally {
    await server.stop();
  }
});

Deno.test("--detach on a stdio server is a usage error before anything starts", async () => {
  const { code, stderr, stdout } = await catJn([
    "mcp+node:///nonexistent/server.js?tool=anything",
    "--detach",
  ]);
  assert.equal(code, 2, stderr);
  assert.equal(stdout, "");
  assert.match(stderr, /--detach needs a remote server or a session: .* ends when jn exits/);
});

Deno.test("?task=ID on a stdio server is a usage error before anything starts", async () => {
  const { code, stderr, stdout } = await catJn(["mcp+node:///nonexistent/server.js?task=t1"]);
  assert.equal(code, 2, stderr);
  assert.equal(stdout, "");
  assert.match(stderr, /runs over stdio: a task of an earlier run ended with that run's server/);
});

const EVERYTHING = await serverEverything();

Deno.test({
  name: "server-everything's simulate-research-query runs as a task (stdio and HTTP)",
  ignore: EVERYTHING === undefined,
  async fn(t) {
    // Each research query takes five seconds of the server's own pacing (five
    // one-second stages): the three runs start at once, each step checks its own.
    const server = await startNodeServer([EVERYTHING!, "streamableHttp"]);
    const base = `mcp+${server.url}/mcp`;
    const stdio = catJnProcess([
      `mcp+node://${EVERYTHING}?tool=simulate-research-query&topic=deno`,
      "--progress",
    ]);
    const elicited = catJnProcess([
      `${base}?tool=simulate-research-query&topic=python&ambiguous=true`,
      "--progress",
      "--elicit",
      "decline",
    ]);
    const resumedRun = (async () => {
      const detached = await catJnProcess([
        `${base}?tool=simulate-research-query&topic=rust`,
        "--detach",
      ]);
      const source = detached.records[0]?.source;
      const resumed = detached.code === 0 && typeof source === "string"
        ? await catJnProcess([source])
        : undefined;
      return { detached, resumed };
    })();
    // Each is awaited by its step; a rejection meanwhile is not an unhandled one.
    for (const run of [stdio, elicited, resumedRun]) run.catch(() => {});
    try {
      await t.step("stdio: a required task, with its status messages on stderr", async () => {
        const { code, records, stderr } = await stdio;
        assert.equal(code, 0, stderr);
        assert.match(String(records[0].text), /^# Research Report: deno/);
        assert.match(stderr, /task [0-9a-f]+ working: Gathering sources\.\.\./);
        assert.match(stderr, /task [0-9a-f]+ completed/);
      });

      await t.step("HTTP: input_required is answered by the elicitation handler", async () => {
        const { code, records, stderr } = await elicited;
        assert.equal(code, 0, stderr);
        assert.match(stderr, /task [0-9a-f]+ input_required: Found multiple interpretations/);
        assert.match(String(records[0].text), /User declined - using default interpretation/);
      });

      await t.step("HTTP: a detached task lives in its session, which resuming joins", async () => {
        const { detached, resumed } = await resumedRun;
        assert.equal(detached.code, 0, detached.stderr);
        const record = detached.records[0];
        assert.equal(record.type, "task");
        assert.equal(typeof record.session, "string");
        assert.equal(
          record.source,
          `${base}?tool=simulate-research-query&task=${record.taskId}&session=${record.session}`,
        );
        assert.ok(resumed !== undefined);
        assert.equal(resumed.code, 0, resumed.stderr);
        assert.equal(resumed.records[0].tool, "simulate-research-query");
        assert.match(String(resumed.records[0].text), /^# Research Report: rust/);
        // The resumed run ended the session: the task is gone with it.
        const again = await catJn([String(record.source)]);
        assert.equal(again.code, 4, again.stderr);
        assert.match(again.stderr, /No valid session ID/);
        assert.match(again.stderr, /hint: the task's session \S+ is over/);
      });
    } finally {
      await Promise.allSettled([stdio, elicited, resumedRun]);
      await server.stop();
    }
  },
});
