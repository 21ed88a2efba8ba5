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
 * - the root-only secrets of /etc and the user's sessions folders (`mask`)
 *   are empty, under any bind: a file is `/dev/null` on a mount without
 *   devices (reading it fails), a directory an empty read-only tmpfs;
 * - every namespace is unshared (user, pid, ipc, uts, cgroup, network); the
 *   network namespace is shared back only when the plan allows network;
 * - all capabilities are dropped (even when jn runs as root, the server
 *   cannot mount or unmount anything);
 * - the whole process tree stays inside: `--unshare-pid` gives the server a
 *   pid namespace whose processes all die with it, `--die-with-parent` ends
 *   the sandbox when jn's child (bwrap) goes, `--new-session` detaches it
 *   from jn's terminal;
 * - the server's variables are the server's alone: bwrap itself runs in the
 *   helper's environment (jn's own PATH, and what the session adds of jn's
 *   own: its safe defaults and the process-tree marker), and each variable
 *   of the server is a `--setenv NAME VALUE` read from descriptor 3
 *   (`--args 3`: never in bwrap's argv, which every user can read), applied
 *   after bwrap has started, so a loader variable (`LD_PRELOAD`) acts on the
 *   confined server only. The server inherits bwrap's environment below its
 *   own variables, which is why `--clearenv` (bubblewrap ≥ 0.5) is not
 *   needed: what bwrap has is the same safe defaults the server gets anyway.
 *
 * Pure: builds an argv, runs nothing.
 *
 * @module
 */

import { SandboxError } from "../errors.ts";
import type { StdioLaunch } from "../launch/spec.ts";
import type { SandboxPlan } from "./plan.ts";

/** Options of {@linkcode bwrapLaunch}. */
export interface BwrapOptions {
  /** The bwrap executable (absolute path, or a name found on PATH). */
  bwrap: string;
  /** bwrap's own environment (jn's, see `helperProgram`); `{}` by default. */
  helperEnv?: Record<string, string>;
  /** The server's whole environment; the launch's `env` when absent. */
  serverEnv?: Record<string, string>;
}

/**
 * The launch that runs `launch` inside bubblewrap according to `plan`.
 *
 * @example
 * ```ts
 * bwrapLaunch({ transport: "stdio", command: "node", args: ["/srv/s.js"], env: {}, label: "node /srv/s.js" },
 *   { system: ["/usr"], hide: [], tmp: "/tmp", read: ["/srv"], write: [], create: [], scratch: [], network: false, chdir: "/", notices: [] },
 *   { bwrap: "/usr/bin/bwrap" });
 * // { command: "/usr/bin/bwrap", args: ["--args", "3", "--die-with-parent", …, "--", "node", "/srv/s.js"],
 * //   pipedArgs: [], env: {}, … }
 * ```
 */
export function bwrapLaunch(
  launch: StdioLaunch,
  plan: SandboxPlan,
  options: BwrapOptions,
): StdioLaunch {
  const { envPassthrough: _passed, ...rest } = launch;
  return {
    ...rest,
    command: options.bwrap,
    args: ["--args", "3", ...bwrapArgs(plan), "--", launch.command, ...launch.args],
    pipedArgs: setenvArgs(options.serverEnv ?? launch.env, launch.label),
    env: { ...options.helperEnv },
    // bwrap changes directory itself (--chdir); its own cwd must exist outside.
    cwd: undefined,
  };
}

/**
 * `--setenv NAME VALUE` for each variable. A NUL byte would end a word early
 * and let a value add bwrap options of its own (`x\0--bind\0/\0/`), and a
 * name with `=` is no variable: both are refused.
 */
export function setenvArgs(env: Record<string, string>, label: string): string[] {
  // Deno's node:child_process tells a child about its extra pipe (descriptor 3) in this
  // variable; bwrap has read and closed it, so the server must not believe it is there.
  const args: string[] = ["--unsetenv", "DENO_EXTRA_STDIO_FDS"];
  for (const [name, value] of Object.entries(env)) {
    if (name === "" || /[=\0]/.test(name) || value.includes("\0")) {
      throw new SandboxError(
        `Cannot sandbox "${label}": its variable ${
          JSON.stringify(name)
        } cannot be passed (a NUL byte, or "=" in its name)`,
        { hint: "give the server's env plain names, and values without NUL bytes" },
      );
    }
    args.push("--setenv", name, value);
  }
  return args;
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
