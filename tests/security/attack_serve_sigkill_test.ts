/**
 * Attack on "no exit path leaves a server process alive" (house rule;
 * docs/serve.md, "Processes: every exit path ends every source's process
 * tree … a process that survives is a bug") for the exit path a host takes
 * when jn serve does not stop in time: SIGKILL. Hosts end their servers
 * with SIGTERM, then SIGKILL. jn cannot run anything then, so only what was
 * set up before can end the tree: bubblewrap's `--die-with-parent` does it
 * for a sandboxed source (checked by hand: `jn serve --sandbox` SIGKILLed,
 * the `--linger` fixture in bwrap is gone); unsandboxed, a
 * server that does not exit on stdin's end (hostile.mjs `--stubborn`)
 * outlives jn, as the user, with the environment it was given. (A
 * parent-death signal set before exec — `setpriv --pdeathsig KILL`, or
 * bwrap without namespaces — would end it.)
 *
 * @module
 */

import assert from "node:assert/strict";
import { endTree, readTree, survivors, treeFiles } from "../session/tree_support.ts";
import { fixtureUri, rawHost } from "../serve/support.ts";

async function killedServe(): Promise<string[]> {
  const { dir, pidFile } = await treeFiles();
  const source = fixtureUri("hostile.mjs", ["--tree", pidFile, "--stubborn"]);
  const host = rawHost([source]);
  try {
    await host.handshake();
    await host.write({ jsonrpc: "2.0", id: 1, method: "tools/list" });
    await host.response(1);
    const tree = await readTree(pidFile);
    host.child.kill("SIGKILL");
    await host.exited();
    // The server itself, and its child in its process group: what --die-with-parent reaches.
    return await survivors(tree, ["server", "grandchild"]);
  } finally {
    await host.exited(1);
    await endTree(pidFile);
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test({
  name: "attack: SIGKILL of jn serve leaves an unsandboxed server that ignores stdin's end running",
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    assert.deepEqual(await killedServe(), [], "the server's tree outlived jn serve");
  },
});
