/**
 * The plain path of `callTool()` (lib/session/sdk_session.ts): a tool
 * without an outputSchema, over stdio, once the listing is in, is called
 * through the SDK's `request()` with jn's own result schema and one frozen
 * options object shared by every call. The path is seen from outside by a
 * result only jn's schema accepts (a text item without its text: the SDK's
 * zod schema refuses it): the same call fails before the listing, through
 * the SDK's `callTool()`, and succeeds after it. The other tests pin the SDK
 * behaviour the path relies on: `request()` accepts a Standard Schema for a
 * spec method and never writes to the options it is given (a write to the
 * frozen object throws).
 */

import assert from "node:assert/strict";
import { ProtocolError } from "../../lib/errors.ts";
import { openSession } from "../../lib/session/session.ts";
import { FIXTURES } from "../helpers.ts";

const SCRIPT = `${FIXTURES}/servers/fixture.mjs`;

/** The `text` argument the fixture's echo tool sends back (as JSON text). */
function echoed(result: { content: unknown[] }): string {
  return JSON.parse((result.content[0] as { text: string }).text).text;
}

async function open(args: string[] = [], script = SCRIPT) {
  return await openSession({
    transport: "stdio",
    command: "node",
    args: [script, ...args],
    env: {},
    label: "fixture",
  }, {
    timeoutMs: 30_000,
    connectTimeoutMs: 30_000,
    callerEnv: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" },
  });
}

Deno.test("a call takes the plain path once the listing is in, and only then", async () => {
  const session = await open([], `${FIXTURES}/servers/malformed_result.mjs`);
  try {
    // Before the listing: the SDK's callTool(), whose schema refuses a text item without text.
    await assert.rejects(session.callTool("textless_item", {}), ProtocolError);
    const tools = await session.listTools();
    assert.equal(tools.find((tool) => tool.name === "textless_item")?.outputSchema, undefined);
    // Plain, with jn's check (a content item needs a type, nothing more): the same answer passes.
    const plain = await session.callTool("textless_item", {});
    assert.deepEqual(plain.content, [{ type: "text" }]);
    // A call with a progress callback takes the general path, with jn's check too (stdio, listed).
    const general = await session.callTool("textless_item", {}, { onProgress: () => {} });
    assert.deepEqual(general.content, [{ type: "text" }]);
  } finally {
    await session.close();
  }
});

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
