/**
 * ProcessTransport writes the messages sent in one turn of the event loop
 * as one write: nothing is lost or reordered, and a message sent just
 * before close() (a cancellation, say) still reaches the server.
 */

import assert from "node:assert/strict";
import { ProcessTransport } from "../../lib/session/process_transport.ts";

const env = { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" };

Deno.test("batched sends reach the server complete and in order", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "jn-send-" });
  try {
    await t.step("1000 sends without awaiting, then close(): every line, in order", async () => {
      const file = `${dir}/received.ndjson`;
      const transport = new ProcessTransport(
        {
          transport: "stdio",
          command: "bash",
          args: ["-c", `cat > ${file}`],
          env: {},
          label: "cat",
        },
        { env },
      );
      await transport.start();
      const sent: Promise<void>[] = [];
      for (let i = 1; i <= 1000; i++) {
        sent.push(transport.send({ jsonrpc: "2.0", method: "n", params: { i } }));
      }
      await Promise.all(sent);
      void transport.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: {} });
      await transport.close();
      const lines = (await Deno.readTextFile(file)).trimEnd().split("\n").map((l) => JSON.parse(l));
      assert.equal(lines.length, 1001);
      assert.deepEqual(
        lines.slice(0, 1000).map((m) => m.params.i),
        [...Array(1000)].map((_, i) => i + 1),
      );
      assert.equal(lines[1000].method, "notifications/cancelled");
    });
    await t.step("a send after close() is refused", async () => {
      const transport = new ProcessTransport(
        { transport: "stdio", command: "cat", args: [], env: {}, label: "cat" },
        { env },
      );
      await transport.start();
      await transport.close();
      await assert.rejects(transport.send({ jsonrpc: "2.0", method: "x" }), /stdin is closed/);
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
