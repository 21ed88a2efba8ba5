/**
 * The fallback to legacy SSE sends the era probe and `initialize` once each:
 * the probe's 405 sends jn to SSE at once (no Streamable HTTP `initialize`
 * after it), and over SSE jn starts with `initialize` (no second probe).
 * Against tests/fixtures/servers/sse_only.ts, which logs every message it
 * receives.
 */

import assert from "node:assert/strict";
import { parseNdjson } from "../helpers.ts";
import { runJnAt, startFixture } from "./support.ts";

Deno.test("the SSE fallback sends its probe and initialize once", async () => {
  const server = await startFixture("sse_only.ts");
  const home = await Deno.makeTempDir({ prefix: "jn-sse-" });
  try {
    const run = await runJnAt(home, ["cat", `mcp+${server.url}/mcp?tool=echo&text=once`]);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(parseNdjson(run.stdout).map((r) => (r as { text: string }).text), ["once"]);
    // The fixture logs a message before it answers: jn has its answer, so all are logged.
    await server.stderrMatches(/sse fixture: tools\/call/);
    const received = server.stderr().split("\n").filter((line) => line.startsWith("sse fixture:"))
      .map((line) => line.slice("sse fixture: ".length));
    assert.deepEqual(received, [
      "POST /mcp server/discover",
      "initialize",
      "notifications/initialized",
      "tools/list",
      "tools/call",
    ]);
  } finally {
    await server.stop();
    await Deno.remove(home, { recursive: true });
  }
});
