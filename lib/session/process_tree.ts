/**
 * The process tree of one stdio server, and how it ends.
 *
 * The server leads a process group of its own (it is spawned `detached`), so
 * one signal reaches everything it started in that group (uvx and npx leave
 * grandchildren). On Linux the tree is more than the group: processes that
 * called `setsid` (puppeteer's browsers, for instance) are found as
 * descendants of the server, and daemons that double-forked away from it are
 * found by a marker variable in the environment they inherited from it
 * (`JN_PROCESS_TREE`); see process_scan.ts.
 *
 * Guarantees: {@linkcode ProcessTree.snapshot} records the descendants while
 * the server still runs (once it exits they are reparented and can no longer
 * be found from it); {@linkcode ProcessTree.reap} ends whatever is left after
 * the server exited, SIGTERM then SIGKILL, and returns only when nothing of
 * the tree is alive (or after SIGKILL); {@linkcode ProcessTree.killNow} does
 * the same at once and synchronously, for exit paths. A remembered pid is
 * signalled only while it still names the same process (start time), and
 * zombies are not waited for. Every SIGKILL of the tree first freezes it
 * (process_scan.ts stops each member the moment it finds it, rescanning
 * until nothing new appears), so a tree that keeps forking and re-parenting
 * away cannot outrun the teardown. Every live tree is in the process-wide
 * registry of live_trees.ts until it is released.
 *
 * When jn itself is killed with SIGKILL, none of this runs: the server's
 * process group is then ended by its reaper (reaper.ts). Not covered
 * without the sandbox: a process that both left the tree's ancestry
 * (double fork) and dropped the marker from its environment, and any
 * process outside the group once jn is killed with SIGKILL. With
 * `--sandbox`, the pid namespace and `--die-with-parent` of bubblewrap cover
 * both.
 *
 * @module
 */

import process from "node:process";
import {
  type KnownProcess,
  scanProcesses,
  scanProcessesSync,
  type ScanResult,
  treeMembers,
} from "./process_scan.ts";
import { trackTree } from "./live_trees.ts";

/** The environment variable that marks every process of a server's tree. */
export const TREE_MARKER_VAR = "JN_PROCESS_TREE";

type KillSignal = "SIGTERM" | "SIGKILL";

/** How long group members no scan sees get between SIGTERM and SIGKILL (ms). */
const GROUP_ONLY_GRACE_MS = 100;

/** A server's process tree, from the moment it was spawned until it is released. */
export class ProcessTree {
  /** The server's pid, also its process group id. */
  readonly pid: number;
  /** `JN_PROCESS_TREE=<id>`: the entry every process of the tree has in its environment. */
  readonly marker: string;
  #known = new Map<number, string>();
  #exited = false;
  /** When the tree was sent SIGTERM. */
  #termAt?: number;
  #untrack: () => void;

  constructor(pid: number, markerValue: string) {
    this.pid = pid;
    this.marker = `${TREE_MARKER_VAR}=${markerValue}`;
    this.#untrack = trackTree(this);
  }

  /** Records the server's descendants as they are now (call while the server runs). */
  async snapshot(): Promise<void> {
    const scan = await scanProcesses([this.pid]);
    if (!scan) return;
    for (const proc of treeMembers(scan, [{ pid: this.pid }])) {
      this.#known.set(proc.pid, proc.start);
    }
  }

  /** Tells the tree that the server itself has exited (its pid may now be reused). */
  exited(): void {
    this.#exited = true;
  }

  /**
   * Signals the whole tree: the server's process group, the server (should it
   * have left its group) and every other living process of the tree.
   */
  async signal(signal: KillSignal): Promise<void> {
    if (signal === "SIGTERM") this.#termAt ??= Date.now();
    // A SIGKILL freezes the tree first (the scan runs while the server still holds its children).
    const frozen = signal === "SIGKILL"
      ? await scanProcesses(this.#roots(), this.marker, { freeze: true })
      : undefined;
    signalPid(-this.pid, signal);
    if (!this.#exited) signalPid(this.pid, signal);
    if (signal === "SIGKILL") return this.#killFrozen(frozen);
    for (const pid of await this.#leftovers() ?? []) signalPid(pid, signal);
  }

  /**
   * Ends what is left of the tree once the server itself has exited:
   * SIGTERM (unless the tree had it already), up to `killAfterMs` after it
   * for it to take effect, then SIGKILL.
   */
  async reap(killAfterMs: number): Promise<void> {
    let left = await this.#leftovers();
    if (left === undefined) return await this.#reapGroup(killAfterMs);
    if (left.length === 0) {
      // Nothing a scan sees; the group may still hold zombies, or a process
      // that cleared its environment after the snapshot: a short grace.
      return await this.#reapGroup(GROUP_ONLY_GRACE_MS);
    }
    if (this.#termAt === undefined) {
      this.#termAt = Date.now();
      signalPid(-this.pid, "SIGTERM");
      for (const pid of left) signalPid(pid, "SIGTERM");
    }
    const deadline = this.#termAt + killAfterMs;
    for (let wait = 10; left.length > 0 && Date.now() < deadline; wait = Math.min(wait * 2, 100)) {
      await delay(wait);
      left = await this.#leftovers() ?? [];
    }
    // Whatever of the group a scan cannot see goes with the rest.
    if (this.#groupAlive()) signalPid(-this.pid, "SIGKILL");
    // Freeze whatever is left, then kill it: a tree still forking may have slipped between
    // two scans (even one that found nothing), never between the passes of a freezing one.
    this.#killFrozen(await scanProcesses(this.#roots(), this.marker, { freeze: true }));
  }

  /** SIGKILLs the whole tree now, synchronously (a second Ctrl-C, `Deno.exit`). */
  killNow(): void {
    // Scan first: once the server dies, its setsid'd children are out of its reach.
    const scan = scanProcessesSync(this.#roots(), this.marker, { freeze: true });
    signalPid(-this.pid, "SIGKILL");
    if (!this.#exited) signalPid(this.pid, "SIGKILL");
    this.#killFrozen(scan);
  }

  /** SIGKILLs every process (and process group) a freezing scan found and stopped. */
  #killFrozen(scan: ScanResult | undefined): void {
    if (!scan) return;
    const groups = new Set<number>();
    for (const proc of scan.procs.values()) {
      if (proc.pid <= 1 || proc.pid === Deno.pid) continue;
      signalPid(proc.pid, "SIGKILL");
      if (proc.pgid !== undefined && proc.pgid > 1) groups.add(proc.pgid);
    }
    for (const group of groups) signalPid(-group, "SIGKILL");
  }

  /** Leaves the registry of live trees (the tree has been ended). */
  release(): void {
    this.#untrack();
  }

  /** Known processes (with their start times), and the server while it runs. */
  #roots(): KnownProcess[] {
    const roots: KnownProcess[] = [...this.#known].map(([pid, start]) => ({ pid, start }));
    if (!this.#exited && !this.#known.has(this.pid)) roots.push({ pid: this.pid });
    return roots;
  }

  /** The living processes of the tree, or undefined when they cannot be scanned. */
  async #leftovers(): Promise<number[] | undefined> {
    const roots = this.#roots();
    const scan = await scanProcesses(roots, this.marker);
    if (!scan) return undefined;
    const members = treeMembers(scan, roots);
    for (const proc of members) this.#known.set(proc.pid, proc.start);
    return members.map((proc) => proc.pid);
  }

  /** The process group alone (no scan, or nothing a scan sees): SIGTERM, then SIGKILL. */
  async #reapGroup(killAfterMs: number): Promise<void> {
    if (!this.#groupAlive()) return;
    signalPid(-this.pid, "SIGTERM");
    const deadline = Date.now() + killAfterMs;
    while (this.#groupAlive() && Date.now() < deadline) await delay(20);
    if (this.#groupAlive()) signalPid(-this.pid, "SIGKILL");
  }

  #groupAlive(): boolean {
    try {
      process.kill(-this.pid, 0);
      return true;
    } catch {
      return false;
    }
  }
}

function signalPid(pid: number, signal: KillSignal): void {
  if (process.platform === "win32") return;
  try {
    process.kill(pid, signal);
  } catch { /* already gone */ }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
