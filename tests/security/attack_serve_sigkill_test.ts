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
 * jn's answer (lib/session/reaper.ts): a `/bin/sh` reaper next to each
 * server, which waits for the end of a pipe from jn and then kills the
 * server's process group — the server and its grandchild both, where a
 * parent-death signal would end the server alone.
 *
 * @module
 */

import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { REAPER_SHELL } from "../../lib/session/reaper.ts";
import {
  endTree,
  hostileUri,
  readTree,
  survivors,
  treeFiles,
  waitForFile,
} from "../session/tree_support.ts";
import { baseEnv, jnArgs, ROOT } from "../helpers.ts";
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

const noShell = Deno.build.os === "linux" && !existsSync(REAPER_SHELL);
if (noShell) {
  // deno-lint-ignore no-console
  console.warn(`attack_serve_sigkill_test: skipped: ${REAPER_SHELL} (jn's reaper) is missing`);
}

Deno.test({
  name: "attack: SIGKILL of jn serve leaves an unsandboxed server that ignores stdin's end running",
  ignore: Deno.build.os !== "linux" || noShell,
  fn: async () => {
    assert.deepEqual(await killedServe(), [], "the server's tree outlived jn serve");
  },
});

Deno.test({
  name: "SIGKILL of any jn (here jn cat, mid-call) ends the server's process group too",
  ignore: Deno.build.os !== "linux" || noShell,
  fn: async () => {
    const { dir, pidFile } = await treeFiles();
    const uri = hostileUri("hang", { switches: ["--tree", pidFile, "--stubborn"] });
    const jn = new Deno.Command(Deno.execPath(), {
      args: jnArgs(["cat", uri]),
      cwd: ROOT,
      env: baseEnv(),
      clearEnv: true,
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn();
    try {
      const tree = await readTree(pidFile);
      await waitForFile(`${pidFile}.call`);
      jn.kill("SIGKILL");
      await jn.status;
      assert.deepEqual(await survivors(tree, ["server", "grandchild"]), []);
    } finally {
      try {
        jn.kill("SIGKILL");
      } catch { /* ended */ }
      await jn.status;
      await endTree(pidFile);
      await Deno.remove(dir, { recursive: true });
    }
  },
});
