/**
 * A task's fields come from the server: in the record `--detach` prints, they
 * cannot replace jn's own (`type`, `tool`, `session`, `source`), which a
 * script acts on (the source is what it runs next), and only the task's
 * documented fields are kept (README "Records"): no `text` or `isError` that
 * would pass for a result's.
 */
import assert from "node:assert/strict";
import { FIXTURES, parseNdjson, runJn, tempDir } from "../helpers.ts";
import { startFixture } from "../remote/support.ts";

Deno.test("--detach: the server's task cannot forge jn's fields of the record", async () => {
  const server = await startFixture("tasks_server.ts");
  try {
    const base = `mcp+${server.url}/mcp`;
    const { code, stdout, stderr } = await runJn(["cat", `${base}?tool=forge`, "--detach"], {
      timeoutMs: 30_000,
    });
    assert.equal(code, 0, stderr);
    const [record] = parseNdjson(stdout) as Record<string, unknown>[];
    assert.equal(record.type, "task");
    assert.equal(record.tool, "forge");
    assert.equal(record.session, undefined, "a session jn does not have");
    assert.equal(record.source, `${base}?tool=forge&task=${record.taskId}`);
  } finally {
    await server.stop();
  }
});

Deno.test("--detach: the record holds the task's documented fields and jn's, nothing else", async () => {
  const server = await startFixture("tasks_server.ts");
  try {
    const base = `mcp+${server.url}/mcp`;
    const { code, stdout, stderr } = await runJn(["cat", `${base}?tool=forge`, "--detach"], {
      timeoutMs: 30_000,
    });
    assert.equal(code, 0, stderr);
    const [record] = parseNdjson(stdout) as Record<string, unknown>[];
    const documented = [
      "type",
      "tool",
      "taskId",
      "status",
      "statusMessage",
      "createdAt",
      "lastUpdatedAt",
      "ttl",
      "pollInterval",
      "session",
      "source",
    ];
    for (const key of Object.keys(record)) {
      assert.ok(documented.includes(key), `"${key}" is not a field of the task record`);
    }
    assert.equal(record.text, undefined);
    assert.equal(record.isError, undefined);
    assert.equal(record.type, "task");
    assert.equal(record.status, "working");
  } finally {
    await server.stop();
  }
});

const NAGGER = `mcp+node://${FIXTURES}/servers/nagger.mjs`;

Deno.test("a task that asks question after question is cancelled at its bound of questions", async () => {
  const dir = await tempDir();
  const log = `${dir}/log`;
  try {
    const { code, stdout, stderr } = await runJn([
      "cat",
      `${NAGGER}?tool=nag&command=--log&command=${log}`,
      "--timeout",
      "1s",
    ], { timeoutMs: 60_000 });
    assert.equal(code, 5, stderr.slice(-2000));
    assert.equal(stdout, "");
    assert.match(
      stderr,
      /\njn: The task "nag-1" kept asking questions: \d+ of them, past the bound of 100 per call/,
    );
    assert.match(stderr, /\nhint: jn cancelled the task/);
    assert.match(stderr, /asked more than 100 questions for one call .*refusing the rest unasked/);
    // Each question asked is two lines (what it asked, and the decline); the refused ones none.
    const asked = stderr.split("\n").filter((line) => / asked: Question \d+\?$/.test(line));
    assert.ok(asked.length <= 200, `${asked.length} questions reached stderr`);
    const server = await Deno.readTextFile(log);
    assert.match(server, /^cancelled$/m, "jn cancelled the task on the server");
    const total = Number(/^asked (\d+)$/m.exec(server)?.[1]);
    assert.ok(total < 1000, `the server got to ask ${total} questions`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a task held input_required until the hard bound: the error says how long jn waited", async () => {
  const { code, stderr } = await runJn([
    "cat",
    `${NAGGER}?tool=nag&command=--silent`,
    "--timeout",
    "200ms",
  ], { timeoutMs: 60_000 });
  assert.equal(code, 4, stderr);
  const match = /^jn: Timed out after (\d+)(ms|s) waiting for task "nag-1" to finish$/m.exec(
    stderr,
  );
  assert.ok(match, stderr);
  const waited = Number(match[1]) * (match[2] === "s" ? 1000 : 1);
  assert.ok(waited >= 2000, `reported ${match[1]}${match[2]}: at least 10 × 200ms were waited`);
  assert.match(stderr, /\nhint: jn cancelled the task: it waits at most 10 × --timeout in all/);
});
