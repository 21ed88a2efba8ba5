/**
 * Helpers of the process-tree tests: the hostile fixture server
 * (tests/fixtures/servers/hostile.mjs) with its `--tree PIDFILE` switch, and
 * checks that every process of the tree is gone. `ps` is used rather than
 * /proc, which Deno refuses without --allow-all; a zombie counts as gone
 * (an orphan reparented to an init that does not reap stays one).
 *
 * @module
 */

import { permissionFlags } from "../../lib/sandbox/permissions.ts";
import { baseEnv, FIXTURES, MAIN, ROOT } from "../helpers.ts";

/** The hostile fixture server. */
export const HOSTILE = `${FIXTURES}/servers/hostile.mjs`;

/** The processes `--tree` starts, by role (see hostile.mjs). */
export type Tree = Record<"server" | "grandchild" | "setsid" | "setsid_clean" | "daemon", number>;

/** `mcp+node://…/hostile.mjs?tool=TOOL&…` with switches as `command=` values. */
export function hostileUri(
  tool: string,
  options: { switches?: string[]; args?: Record<string, string> } = {},
): string {
  const query = new URLSearchParams({ tool, ...options.args });
  for (const flag of options.switches ?? []) query.append("command", flag);
  return `mcp+node://${HOSTILE}?${query.toString().replaceAll("+", "%20")}`;
}

/** A temporary directory with the path of a tree's pid file; remove `dir` when done. */
export async function treeFiles(): Promise<{ dir: string; pidFile: string }> {
  const dir = await Deno.makeTempDir({ prefix: "jn-tree-" });
  return { dir, pidFile: `${dir}/tree.json` };
}

/** Waits until `path` exists (the fixture writes its files atomically). */
export async function waitForFile(path: string, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      await Deno.stat(path);
      return;
    } catch {
      if (Date.now() > deadline) throw new Error(`${path} never appeared`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

/** The pids the fixture wrote. */
export async function readTree(pidFile: string): Promise<Tree> {
  await waitForFile(pidFile);
  const tree = JSON.parse(await Deno.readTextFile(pidFile)) as Tree;
  for (const [role, pid] of Object.entries(tree)) {
    if (!(Number.isInteger(pid) && pid > 1)) throw new Error(`bad pid for ${role}: ${pid}`);
  }
  return tree;
}

/** The pids among `pids` that are alive (not gone, not zombies). */
export async function living(pids: number[]): Promise<number[]> {
  const { stdout } = await new Deno.Command("ps", {
    args: ["-o", "pid=,stat=", "-p", pids.join(",")],
    stdout: "piped",
    stderr: "null",
  }).output();
  return new TextDecoder().decode(stdout).split("\n")
    .map((line) => line.trim().split(/\s+/))
    .filter(([pid, stat]) => pid !== "" && stat !== undefined && !stat.startsWith("Z"))
    .map(([pid]) => Number(pid));
}

/** Waits (up to `ms`) for `pid` to be gone (a zombie counts as gone): whether it went. */
export async function waitGone(pid: number, ms = 3000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while ((await living([pid])).length > 0 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
  }
  return (await living([pid])).length === 0;
}

/**
 * Waits (up to `ms`) for every process of `roles` in the tree to be gone, and
 * returns the roles still alive then (`[]` when none survived). Orphans are
 * SIGKILLed afterwards so that a failing test leaves nothing behind.
 */
export async function survivors(tree: Tree, roles: (keyof Tree)[], ms = 5000): Promise<string[]> {
  const deadline = Date.now() + ms;
  let alive = await living(roles.map((role) => tree[role]));
  while (alive.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    alive = await living(alive);
  }
  for (const pid of alive) {
    try {
      Deno.kill(pid, "SIGKILL");
    } catch { /* gone meanwhile */ }
  }
  return roles.filter((role) => alive.includes(tree[role]));
}

/**
 * SIGKILLs whatever of the tree in `pidFile` still lives (if the file was
 * written): a test ends every process it caused, including those jn is
 * documented not to reach.
 */
export async function endTree(pidFile: string): Promise<void> {
  let tree: Tree;
  try {
    tree = JSON.parse(await Deno.readTextFile(pidFile));
  } catch {
    return;
  }
  for (const pid of await living(Object.values(tree))) {
    try {
      Deno.kill(pid, "SIGKILL");
    } catch { /* gone meanwhile */ }
  }
}

/** Every role of a tree. */
export const ALL_ROLES: (keyof Tree)[] = [
  "server",
  "grandchild",
  "setsid",
  "setsid_clean",
  "daemon",
];

/** Starts `jn ARGS…` (production permissions) with piped stdout and stderr, for signal tests. */
export function spawnJn(args: string[]): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "--config", `${ROOT}/deno.json`, ...permissionFlags(), MAIN, ...args],
    cwd: ROOT,
    env: baseEnv(),
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
}

/** Collects a spawned jn's exit code and output (killing it after `ms`). */
export async function collect(child: Deno.ChildProcess, ms = 30_000) {
  const timer = setTimeout(() => {
    try {
      child.kill("SIGKILL");
    } catch { /* gone */ }
  }, ms);
  const output = await child.output();
  clearTimeout(timer);
  const decoder = new TextDecoder();
  return {
    code: output.code,
    stdout: decoder.decode(output.stdout),
    stderr: decoder.decode(output.stderr),
  };
}
