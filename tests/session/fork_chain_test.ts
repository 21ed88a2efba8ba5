/**
 * A server whose tree keeps re-forking away (a chain of short-lived `sh`
 * processes, each in a session of its own and re-parented to init, each
 * ignoring SIGTERM and keeping jn's marker in its environment) does not
 * outrun the teardown: when jn exits, no process carrying the tree's marker
 * is alive. The chain is bounded (600 generations of ~10 ms) so that a
 * failing run cleans itself up.
 */

import assert from "node:assert/strict";
import { runJn } from "../helpers.ts";
import {
  ALL_ROLES,
  endTree,
  hostileUri,
  readTree,
  survivors,
  treeFiles,
  waitForFile,
} from "./tree_support.ts";

/** Living (not zombie) pids whose environment holds `JN_PROCESS_TREE=marker`. */
async function marked(marker: string): Promise<number[]> {
  const { stdout } = await new Deno.Command("/bin/sh", {
    args: [
      "-c",
      'for f in $(grep -lsF -e "$1" /proc/[0-9]*/environ); do p=${f#/proc/}; ' +
      'read -r s < "/proc/${p%/environ}/stat" && case ${s##*) } in Z*|X*) ;; *) echo ${p%/environ};; esac; done',
      "marked",
      `JN_PROCESS_TREE=${marker}`,
    ],
    stdout: "piped",
    stderr: "null",
  }).output();
  return new TextDecoder().decode(stdout).split("\n").filter(Boolean).map(Number);
}

Deno.test("a fast re-forking chain carrying the marker does not survive jn", async () => {
  const { dir, pidFile } = await treeFiles();
  let marker = "";
  try {
    const uri = hostileUri("echo", {
      args: { text: "hi" },
      switches: ["--tree", pidFile, "--fork-chain", "600"],
    });
    const result = await runJn(["cat", uri], { timeoutMs: 30_000 });
    assert.equal(result.code, 0, result.stderr);
    await waitForFile(`${pidFile}.marker`);
    marker = await Deno.readTextFile(`${pidFile}.marker`);
    assert.match(marker, /^[0-9a-f-]{36}$/);
    // A process SIGKILLed just before jn exited may take a moment to die; an escaped
    // chain keeps re-forking for seconds.
    let left = await marked(marker);
    for (let round = 0; left.length > 0 && round < 10; round++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      left = await marked(marker);
    }
    assert.deepEqual(left, [], "a marked process survived jn");
    assert.deepEqual(await survivors(await readTree(pidFile), ALL_ROLES), []);
  } finally {
    await endTree(pidFile);
    // A failing run: stop the chain (each generation is found by the marker).
    for (let round = 0; marker !== "" && round < 50; round++) {
      const left = await marked(marker);
      if (left.length === 0) break;
      for (const pid of left) {
        try {
          Deno.kill(pid, "SIGKILL");
        } catch { /* gone */ }
      }
    }
    await Deno.remove(dir, { recursive: true });
  }
});
