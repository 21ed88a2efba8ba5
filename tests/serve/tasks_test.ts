/**
 * Tasks (2025-11-25) pass through: a task-augmented `tools/call` gives the
 * host the server's task, and `tasks/get`, `tasks/result` and
 * `tasks/cancel` reach the server that created it.
 *
 * @module
 */

import assert from "node:assert/strict";
import { startFixture } from "../remote/support.ts";
import { stdioHost } from "./support.ts";

const AS_IS = {
  "~standard": { version: 1 as const, vendor: "test", validate: (value: unknown) => ({ value }) },
};

Deno.test("serve: a task-augmented call, its status, result and cancellation pass through", async () => {
  const remote = await startFixture("tasks_server.ts");
  const host = await stdioHost([`mcp+${remote.url}/mcp`]);
  try {
    const client = host.client;
    const tasks = client.getServerCapabilities()?.tasks as Record<string, unknown> | undefined;
    assert.deepEqual(tasks, { cancel: {}, requests: { tools: { call: {} } } });
    // deno-lint-ignore no-explicit-any
    const request = (method: string, params: Record<string, unknown>): Promise<any> =>
      client.request({ method, params } as never, AS_IS);
    const created = await request("tools/call", {
      name: "count",
      arguments: { steps: 2, delay_ms: 20 },
      task: { ttl: 60_000 },
    });
    const taskId = created.task.taskId;
    assert.equal(typeof taskId, "string");
    const status = await request("tasks/get", { taskId });
    assert.equal(status.taskId, taskId);
    const result = await request("tasks/result", { taskId });
    assert.deepEqual(result.content, [{ type: "text", text: "counted 2 (task)" }]);
    const forever = await request("tools/call", { name: "forever", arguments: {}, task: {} });
    const cancelled = await request("tasks/cancel", { taskId: forever.task.taskId });
    assert.equal(cancelled.status, "cancelled");
    await remote.stderrMatches(new RegExp(`cancelled ${forever.task.taskId}`));
  } finally {
    await host.close();
    await remote.stop();
  }
});
