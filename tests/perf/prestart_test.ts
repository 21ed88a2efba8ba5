/**
 * A prestarted ProcessTransport (the server starts while the SDK loads)
 * behaves like one started by the SDK: what the server says before
 * `start()` reaches the handlers right after it, in order, and a server
 * that is already gone by then is reported as closed.
 */

import assert from "node:assert/strict";
import { ProcessTransport } from "../../lib/session/process_transport.ts";
import type { StdioLaunch } from "../../lib/launch/spec.ts";

function bash(script: string): StdioLaunch {
  return { transport: "stdio", command: "bash", args: ["-c", script], env: {}, label: "bash" };
}

const env = { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" };
/** Resolves once `condition()` holds, looking after each turn of the event loop. */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}

Deno.test("prestart() starts the server before start() and loses nothing it said", async (t) => {
  await t.step("early messages wait for start(), then arrive in order", async () => {
    let said = "";
    const transport = new ProcessTransport(
      bash(
        `echo '{"jsonrpc":"2.0","method":"a"}'; echo '{"jsonrpc":"2.0","method":"b"}'; ` +
          `echo said >&2; cat`,
      ),
      { env, onStderr: (text) => said += text },
    );
    const seen: string[] = [];
    transport.onmessage = (message) => seen.push((message as { method: string }).method);
    transport.prestart();
    assert.ok(transport.pid, "the process runs before start()");
    // The event: the server has written both messages (then "said" on stderr).
    await until(() => said.includes("said"));
    assert.deepEqual(seen, [], "nothing is delivered before start()");
    await transport.start();
    assert.deepEqual(seen, ["a", "b"]);
    await transport.send({ jsonrpc: "2.0", method: "c" });
    await transport.close();
  });

  await t.step("a server that exited before start() is reported closed after it", async () => {
    const transport = new ProcessTransport(bash("exit 3"), { env });
    let closed = false;
    transport.onclose = () => closed = true;
    transport.prestart();
    // The event: the server has exited, before start().
    await until(() => transport.exitStatus() !== undefined);
    assert.equal(closed, false);
    await transport.start();
    assert.equal(closed, true);
    assert.deepEqual(transport.exitStatus(), { code: 3, signal: null });
    await transport.close();
  });

  await t.step("start() after prestart() cannot start a second process", async () => {
    const transport = new ProcessTransport(bash("cat"), { env });
    transport.prestart();
    const pid = transport.pid;
    await transport.start();
    assert.equal(transport.pid, pid);
    await assert.rejects(transport.start(), /already started/);
    await transport.close();
  });

  await t.step("a command that cannot start is reported by start()", async () => {
    const transport = new ProcessTransport(
      { transport: "stdio", command: "jn-no-such-command", args: [], env: {}, label: "x" },
      { env },
    );
    transport.prestart();
    await assert.rejects(transport.start(), /not found on PATH/);
    await transport.close();
  });
});
