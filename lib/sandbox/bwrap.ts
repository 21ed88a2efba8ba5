/**
 * A stdio launch confined by bubblewrap (Linux): the same server, started as
 * `bwrap <mounts> -- COMMAND ARGS…`.
 *
 * Guarantees of the argv built here:
 * - the server's root is an empty read-only tmpfs holding only the plan's
 *   system directories (read-only, `--ro-bind-try`: a missing one is skipped),
 *   fresh /dev and /proc, a private writable tmpfs on /tmp, the plan's `read`
 *   paths read-only and its `write` paths writable (each at its real path:
 *   a path the runtime uses through a symlink is that symlink, `--symlink`);
 *   nothing else of the host (home directories, /run and its sockets, /mnt,
 *   /media, /srv, /var) exists;
 * - the root-only secrets of /etc (`mask`) are empty: a file is `/dev/null`
 *   on a mount without devices (reading it fails), a directory an empty
 *   read-only tmpfs;
 * - every namespace is unshared (user, pid, ipc, uts, cgroup, network); the
 *   network namespace is shared back only when the plan allows network;
 * - all capabilities are dropped (even when jn runs as root, the server
 *   cannot mount or unmount anything);
 * - the whole process tree stays inside: `--unshare-pid` gives the server a
 *   pid namespace whose processes all die with it, `--die-with-parent` ends
 *   the sandbox when jn's child (bwrap) goes, `--new-session` detaches it
 *   from jn's terminal.
 *
 * Pure: builds an argv, runs nothing.
 *
 * @module
 */

import type { StdioLaunch } from "../launch/spec.ts";
import type { SandboxPlan } from "./plan.ts";

/** Options of {@linkcode bwrapLaunch}. */
export interface BwrapOptions {
  /** The bwrap executable (absolute path, or a name found on PATH). */
  bwrap: string;
}

/**
 * The launch that runs `launch` inside bubblewrap according to `plan`.
 *
 * @example
 * ```ts
 * bwrapLaunch({ transport: "stdio", command: "node", args: ["/srv/s.js"], env: {}, label: "node /srv/s.js" },
 *   { system: ["/usr"], hide: [], tmp: "/tmp", read: ["/srv"], write: [], create: [], scratch: [], network: false, chdir: "/", notices: [] },
 *   { bwrap: "/usr/bin/bwrap" });
 * // { command: "/usr/bin/bwrap", args: ["--die-with-parent", …, "--", "node", "/srv/s.js"], … }
 * ```
 */
export function bwrapLaunch(
  launch: StdioLaunch,
  plan: SandboxPlan,
  options: BwrapOptions,
): StdioLaunch {
  return {
    ...launch,
    command: options.bwrap,
    args: [...bwrapArgs(plan), "--", launch.command, ...launch.args],
    // bwrap changes directory itself (--chdir); its own cwd must exist outside.
    cwd: undefined,
  };
}

/** The options of bwrap for a plan, without the command. */
export function bwrapArgs(plan: SandboxPlan): string[] {
  const args = [
    "--die-with-parent",
    "--new-session",
    "--unshare-all",
    ...(plan.network ? ["--share-net"] : []),
    "--cap-drop",
    "ALL",
  ];
  for (const dir of plan.system) args.push("--ro-bind-try", dir, dir);
  args.push("--dev", "/dev", "--proc", "/proc", "--tmpfs", plan.tmp);
  // Outer paths first, so that a path nested in another gets its own mode.
  const binds = [
    ...plan.read.map((path) => ({ path, writable: false })),
    ...plan.write.map((path) => ({ path, writable: true })),
  ].sort((a, b) => depth(a.path) - depth(b.path) || a.path.localeCompare(b.path));
  for (const bind of binds) {
    args.push(bind.writable ? "--bind" : "--ro-bind", bind.path, bind.path);
  }
  for (const dir of plan.scratch) args.push("--tmpfs", dir);
  // After every bind, so that no bind uncovers them again.
  for (const secret of plan.mask ?? []) {
    if (secret.kind === "file") args.push("--ro-bind", "/dev/null", secret.path);
    else args.push("--tmpfs", secret.path, "--remount-ro", secret.path);
  }
  // The runtime's view of a symlinked path, pointing at the real path bound above.
  for (const link of plan.links ?? []) args.push("--symlink", link.target, link.path);
  // The root tmpfs read-only once the mount points of the binds exist (not recursive).
  args.push("--remount-ro", "/", "--chdir", plan.chdir);
  return args;
}

function depth(path: string): number {
  return path.split("/").filter(Boolean).length;
}
