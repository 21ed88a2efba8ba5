/**
 * The plain path of `callTool()` (lib/session/sdk_session.ts): a tool
 * without an outputSchema, over stdio, is called through the SDK's
 * `request()` with jn's own result schema and one frozen options object
 * shared by every call. These tests pin the SDK behaviour it relies on:
 * `request()` accepts a Standard Schema for a spec method and never writes
 * to the options it is given (a write to the frozen object throws).
 */

import assert from "node:assert/strict";
import { openSession } from "../../lib/session/session.ts";
import { FIXTURES } from "../helpers.ts";

const SCRIPT = `${FIXTURES}/servers/fixture.mjs`;

/** The `text` argument the fixture's echo tool sends back (as JSON text). */
function echoed(result: { content: unknown[] }): string {
  return JSON.parse((result.content[0] as { text: string }).text).text;
}

async function open(args: string[] = []) {
  return await openSession({
    transport: "stdio",
    command: "node",
    args: [SCRIPT, ...args],
    env: {},
    label: "fixture",
  }, {
    timeoutMs: 30_000,
    connectTimeoutMs: 30_000,
    callerEnv: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" },
  });
}

Deno.test("plain calls in flight together each get their own answer, in any order", async () => {
  const session = await open(["--random-delay", "5"]);
  try {
    const tools = await session.listTools();
    assert.equal(tools.find((tool) => tool.name === "echo")?.outputSchema, undefined);
    const texts = Array.from({ length: 64 }, (_, i) => `record ${i}`);
    const results = await Promise.all(texts.map((text) => session.callTool("echo", { text })));
    assert.deepEqual(
      results.map(echoed),
      texts,
    );
  } finally {
    await session.close();
  }
});

Deno.test("a plain call's failures are jn's errors, named after the tool", async () => {
  const session = await open();
  try {
    await session.listTools();
    await assert.rejects(
      session.callTool("rpc_error", {}),
      (error: Error) => error.message.includes('tools/call "rpc_error"'),
    );
    // The session goes on: the shared options object was not spoilt by the failure.
    assert.equal(echoed(await session.callTool("echo", { text: "after" })), "after");
  } finally {
    await session.close();
  }
});
