/**
 * The end of a server's process group when jn itself ends without its
 * teardown: SIGKILL (a host that stops `jn serve` with it), a crash, an
 * exit that skips `close()`. Nothing of jn runs then, so what ends the group
 * must already be running: a **reaper**, a tiny `/bin/sh` started next to
 * each stdio server, in a session of its own (a Ctrl-C in the terminal does
 * not reach it), that reads a pipe from jn it is never sent anything on.
 * The kernel closes that pipe when jn's process ends, however it ends; the
 * reaper's read then returns, and it sends SIGKILL to the server's process
 * group (the server and everything it started in it: npx's and uvx's
 * children too). A parent-death signal (`setpriv --pdeathsig`, bubblewrap's
 * `--die-with-parent`) would end the server alone, not its group.
 *
 * Guarantees: the reaper is stopped (SIGKILL, then its pipe closed, in that
 * order, so it never acts) by {@linkcode Reaper.stop} once jn's own teardown
 * has ended the tree; it gets no environment; a reaper that cannot start
 * (no `/bin/sh`, a `--allow-run` that does not list it: never a permission
 * prompt) leaves the server running as before, without this guarantee. Not covered: processes that
 * left the group (`setsid`, double forks) — the sandbox's pid namespace
 * covers those (process_tree.ts). POSIX only; nothing on Windows.
 *
 * @module
 */

/** The shell the reaper runs in (absolute: a PATH of the caller's must not pick another). */
export const REAPER_SHELL = "/bin/sh";

/** Waits for the end of its stdin (jn's end), then kills the process group `$1`. */
const SCRIPT = 'read -r _ 2>/dev/null; kill -s KILL -- "-$1" 2>/dev/null';

/** A running reaper of one process group. */
export interface Reaper {
  /** Ends the reaper without it acting (jn's teardown ended the group already). Idempotent. */
  stop(): void;
}

/** Starts the reaper of process group `group`, or undefined when it cannot start. */
export function startReaper(group: number): Reaper | undefined {
  if (Deno.build.os === "windows" || !(group > 1)) return undefined;
  // Never a permission prompt for it: a program that did not allow the shell runs without it.
  if (Deno.permissions.querySync({ name: "run", command: REAPER_SHELL }).state !== "granted") {
    return undefined;
  }
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(REAPER_SHELL, {
      args: ["-c", SCRIPT, "jn-reaper", String(group)],
      clearEnv: true,
      detached: true,
      stdin: "piped",
      stdout: "null",
      stderr: "null",
    }).spawn();
  } catch {
    return undefined; // no shell, or not allowed to run it: the server runs without it
  }
  // The reaper waits as long as jn runs: it must not keep jn's event loop alive.
  child.unref();
  child.status.catch(() => {});
  let stopped = false;
  return {
    stop() {
      if (stopped) return;
      stopped = true;
      try {
        // SIGKILL first: once it is pending, the end of its stdin can no longer wake it.
        child.kill("SIGKILL");
      } catch { /* it ended already */ }
      child.stdin.abort().catch(() => {});
    },
  };
}
