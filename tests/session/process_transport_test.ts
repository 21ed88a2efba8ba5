/**
 * The stdio transport's framing against real child processes: the bound on
 * one message, and the unterminated last line of a server that dies.
 */

import assert from "node:assert/strict";
import { ProtocolError } from "../../lib/errors.ts";
import { ProcessTransport } from "../../lib/session/process_transport.ts";

/** A transport over `node -e CODE`, collecting what it reports until it closes. */
async function run(code: string, options: { maxMessageBytes?: number } = {}) {
  const transport = new ProcessTransport(
    { transport: "stdio", command: "node", args: ["-e", code], env: {}, label: "node -e" },
    { env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" }, ...options },
  );
  const messages: unknown[] = [];
  const errors: Error[] = [];
  const closed = new Promise<void>((resolve) => transport.onclose = resolve);
  transport.onmessage = (message) => void messages.push(message);
  transport.onerror = (error) => void errors.push(error);
  try {
    await transport.start();
    await closed;
  } finally {
    await transport.close();
  }
  return { messages, errors };
}

const MIB = 1024 * 1024;

Deno.test("a message longer than maxMessageBytes is a protocol error; the next one still arrives", async () => {
  const code = `
    const big = JSON.stringify({ jsonrpc: "2.0", method: "x", params: { s: "a".repeat(${
    2 * MIB
  }) } });
    process.stdout.write(big + "\\n");
    process.stdout.write(JSON.stringify({ jsonrpc: "2.0", method: "after" }) + "\\n");
  `;
  const { messages, errors } = await run(code, { maxMessageBytes: MIB });
  assert.equal(errors.length, 1);
  assert.ok(errors[0] instanceof ProtocolError);
  assert.equal(
    errors[0].message,
    "The server sent a message larger than 1 MiB (jn's bound of one message)",
  );
  assert.deepEqual(messages, [{ jsonrpc: "2.0", method: "after" }]);
});

Deno.test("a message just under maxMessageBytes passes", async () => {
  const code = `
    const head = JSON.stringify({ jsonrpc: "2.0", method: "x", params: { s: "" } });
    process.stdout.write(head.replace('""', JSON.stringify("b".repeat(${MIB} - head.length - 1))) + "\\n");
  `;
  const { messages, errors } = await run(code, { maxMessageBytes: MIB });
  assert.deepEqual(errors, []);
  assert.equal(messages.length, 1);
});

Deno.test("the unterminated last line of a dying server is no protocol error", async () => {
  const { messages, errors } = await run(
    `process.stdout.write('{"jsonrpc":"2.0","id":1,"result":{"content":['); process.exit(1);`,
  );
  assert.deepEqual(messages, []);
  assert.equal(errors.length, 1);
  assert.ok(!(errors[0] instanceof ProtocolError), "the exit is the error, not the fragment");
  assert.match(errors[0].message, /^The server's output ended mid-message: /);
});
