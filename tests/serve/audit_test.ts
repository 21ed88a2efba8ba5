/**
 * `audit`: one NDJSON line per tool call — time, source, tool, the names of
 * the arguments (never their values), outcome and duration — appended to a
 * file only its owner can read.
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { fixtureProfile } from "../drift/setup.ts";
import { sandbox } from "../profile/sandbox.ts";
import { stdioHost } from "./support.ts";

Deno.test("jn serve --audit: one line per call, argument names only", async () => {
  const box = await sandbox();
  await fixtureProfile(box);
  const audit = join(box.root, "audit.ndjson");
  await Deno.writeTextFile(audit, '{"earlier":"line"}\n', { mode: 0o600 });
  // The server's descriptions changed since the snapshot: `search` is withheld (refused).
  const host = await stdioHost(["--audit", audit, "@fx"], {
    cwd: box.project,
    env: { HOME: box.home, FIXTURE_SCHEMA: "v2-description" },
  });
  try {
    const client = host.client;
    await client.callTool({ name: "echo", arguments: { text: "very-private-value", extra: 1 } });
    await client.callTool({ name: "fail", arguments: { message: "no" } });
    await client.callTool({ name: "rpc_error", arguments: {} }).catch(() => {});
    await client.callTool({ name: "search", arguments: { gene: "BRAF" } }).catch(() => {});
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
      { source: "fx", tool: "echo", names: ["text", "extra"], outcome: "ok" },
      { source: "fx", tool: "fail", names: ["message"], outcome: "tool_error" },
      { source: "fx", tool: "rpc_error", names: [], outcome: "error" },
      { source: "fx", tool: "search", names: ["gene"], outcome: "refused" },
    ],
  );
  for (const line of lines) {
    assert.ok(!Number.isNaN(Date.parse(line.time)), line.time);
    assert.equal(typeof line.duration_ms, "number");
  }
  assert.equal((await Deno.stat(audit)).mode! & 0o777, 0o600);
  await box.dispose();
});
