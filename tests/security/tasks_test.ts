/**
 * A task's fields come from the server: in the record `--detach` prints, they
 * cannot replace jn's own (`type`, `tool`, `session`, `source`), which a
 * script acts on (the source is what it runs next), and only the task's
 * documented fields are kept (README "Records"): no `text` or `isError` that
 * would pass for a result's.
 */
import assert from "node:assert/strict";
import { parseNdjson, runJn } from "../helpers.ts";
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
