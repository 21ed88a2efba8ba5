/**
 * A process that embeds jn's session exits as soon as the session is
 * closed: no timer of the transport (the 100 ms "last output" grace after
 * the server's exit) keeps its event loop alive.
 */

import assert from "node:assert/strict";

Deno.test("nothing of a closed ProcessTransport keeps the process alive", async () => {
  const script = new URL("./fixtures/session_then_exit.ts", import.meta.url).pathname;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-run", "--allow-env", script],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  const lingered = Number(new TextDecoder().decode(out.stdout).trim());
  assert.ok(lingered < 60, `the event loop stayed alive ${lingered} ms after close()`);
});
