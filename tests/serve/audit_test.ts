/**
 * `audit`: one NDJSON line per tool call — time, source, tool, the names of
 * the arguments (never their values), outcome and duration — appended to a
 * file only its owner can read.
 *
 * @module
 */

import assert from "node:assert/strict";
import { fixtureUri, stdioHost } from "./support.ts";

Deno.test("serve --audit: one line per call, argument names only", async () => {
  const dir = await Deno.makeTempDir();
  const audit = `${dir}/audit.ndjson`;
  await Deno.writeTextFile(audit, '{"earlier":"line"}\n', { mode: 0o600 });
  const host = await stdioHost(["--audit", audit, "--hide", "env", fixtureUri("fixture.mjs")]);
  try {
    const client = host.client;
    await client.callTool({ name: "echo", arguments: { text: "very-private-value", extra: 1 } });
    await client.callTool({ name: "fail", arguments: { message: "no" } });
    await client.callTool({ name: "rpc_error", arguments: {} }).catch(() => {});
    await client.callTool({ name: "env", arguments: {} }).catch(() => {});
  } finally {
    await host.close();
  }
  const text = await Deno.readTextFile(audit);
  assert.ok(!text.includes("very-private-value"), "argument values are not written");
  const [earlier, ...lines] = text.trim().split("\n").map((line) => JSON.parse(line));
  assert.deepEqual(earlier, { earlier: "line" }, "appended, not overwritten");
  assert.deepEqual(
    lines.map(({ source, tool, arguments: names, outcome }) => ({ source, tool, names, outcome })),
    [
      { source: "fixture", tool: "echo", names: ["text", "extra"], outcome: "ok" },
      { source: "fixture", tool: "fail", names: ["message"], outcome: "tool_error" },
      { source: "fixture", tool: "rpc_error", names: [], outcome: "error" },
      { source: "fixture", tool: "env", names: [], outcome: "refused" },
    ],
  );
  for (const line of lines) {
    assert.ok(!Number.isNaN(Date.parse(line.time)), line.time);
    assert.equal(typeof line.duration_ms, "number");
  }
  await Deno.remove(dir, { recursive: true });
});
