/**
 * Finding and ending a server's process tree: the scan's parsing and
 * membership rules (pure), a real scan of a real tree, and the exit hook
 * that ends a tree nobody closed.
 */

import assert from "node:assert/strict";
import { parseScan, scanProcesses, treeMembers } from "../../lib/session/process_scan.ts";
import { ROOT } from "../helpers.ts";
import { ALL_ROLES, endTree, HOSTILE, readTree, survivors, treeFiles } from "./tree_support.ts";

const LINUX = Deno.build.os === "linux";

Deno.test("parseScan() reads process lines and marker lines, skipping garbage", () => {
  const scan = parseScan(
    "P 10 1 S 500\nP 11 10 Z 501\nM 12\nP 12 1 S 502\nP x 1 S 1\nP 13 10 S\nnoise\n",
  );
  assert.deepEqual([...scan.procs.keys()], [10, 11, 12]);
  assert.deepEqual(scan.procs.get(11), { pid: 11, ppid: 10, state: "Z", start: "501" });
  assert.deepEqual([...scan.marked], [12]);
});

Deno.test("treeMembers() follows descendants of verified roots and marked processes", () => {
  const scan = parseScan([
    "P 100 1 S 1000", // the server
    "P 101 100 S 1001", // its child
    "P 102 101 S 1002", // a grandchild (setsid'd: the group does not matter)
    "P 103 100 Z 1003", // a zombie child: not waited for
    "P 200 1 S 2000", // a marked daemon
    "P 201 200 S 2001", // the daemon's child
    "P 300 1 S 3000", // unrelated
    "M 200",
  ].join("\n"));
  const pids = (roots: { pid: number; start?: string }[]) =>
    treeMembers(scan, roots).map((proc) => proc.pid).sort();
  assert.deepEqual(pids([{ pid: 100 }]), [100, 101, 102, 200, 201]);
  // A remembered pid now naming another process (another start time) is not ours.
  assert.deepEqual(pids([{ pid: 101, start: "999" }]), [200, 201]);
  assert.deepEqual(pids([{ pid: 101, start: "1001" }]), [101, 102, 200, 201]);
});

Deno.test({
  name: "scanProcesses() finds setsid'd descendants and processes carrying the marker",
  ignore: !LINUX,
  async fn() {
    const marker = `JN_TEST_MARK=${crypto.randomUUID()}`;
    // A shell with a plain child and a setsid'd one; plus an unrelated process with the marker.
    // The shell says "ready" once it has started both children (the event the scan waits for).
    const tree = new Deno.Command("sh", {
      args: ["-c", "sleep 60 & setsid sleep 61 & echo ready; wait"],
      stdin: "null",
      stdout: "piped",
    }).spawn();
    const [name, value] = marker.split("=");
    const marked = new Deno.Command("sleep", { args: ["62"], env: { [name]: value } }).spawn();
    let members: number[] = [];
    try {
      const reader = tree.stdout.pipeThrough(new TextDecoderStream()).getReader();
      assert.equal((await reader.read()).value, "ready\n");
      reader.releaseLock();
      const scan = await scanProcesses([tree.pid]);
      assert.ok(scan, "the scan runs on Linux");
      members = treeMembers(scan, [{ pid: tree.pid }]).map((proc) => proc.pid);
      assert.equal(members.length, 3, `the shell and its two sleeps: ${members}`);
      assert.ok(!members.includes(marked.pid));
      const withMarker = await scanProcesses([], marker);
      assert.deepEqual([...withMarker!.marked], [marked.pid]);
    } finally {
      // The sleeps first (by pid, from the scan), then the shell and the marked sleep.
      for (const pid of members.filter((pid) => pid !== tree.pid)) {
        try {
          Deno.kill(pid, "SIGKILL");
        } catch { /* gone */ }
      }
      await tree.stdout.cancel().catch(() => {});
      for (const child of [tree, marked]) {
        try {
          child.kill("SIGKILL");
        } catch { /* gone */ }
        await child.status;
      }
    }
  },
});

Deno.test("Deno.exit() with a session still open ends the server's whole tree", async () => {
  const { dir, pidFile } = await treeFiles();
  try {
    const output = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--config",
        `${ROOT}/deno.json`,
        "-P=jn",
        `${ROOT}/tests/session/scripts/exit_without_close.ts`,
        HOSTILE,
        "--tree",
        pidFile,
        "--stubborn",
      ],
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(output.code, 7, new TextDecoder().decode(output.stderr));
    const tree = await readTree(pidFile);
    assert.deepEqual(await survivors(tree, ALL_ROLES), [], "orphans survived Deno.exit()");
  } finally {
    await endTree(pidFile);
    await Deno.remove(dir, { recursive: true });
  }
});
