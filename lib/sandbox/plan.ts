/**
 * What a sandboxed server sees, worked out once for both sandbox tools
 * (bubblewrap on Linux, sandbox-exec on macOS): which paths are visible
 * read-only or writable, where the server starts, and whether the network is
 * reachable.
 *
 * Linux builds the server's file system from an allow-list: the system
 * directories (programs, libraries, /etc) read-only, a private /tmp, fresh
 * /dev and /proc, and nothing else: no home directories, no /run (sockets),
 * no /mnt, /media, /srv, /var, no other user data. macOS has no mount
 * namespaces, so there the user's places are denied instead (`hide`).
 *
 * On top of that come the declared paths, and, without being declared, what
 * the server's runtime needs, read-only (runtime_mounts.ts: the script's
 * package and the trees its imports resolve from, the installation of a
 * hidden launcher, a profile's `cwd`) and what its launcher needs
 * (launcher_state.ts: a cached npx package read-only, jn's own per-server
 * cache). Never a broad directory (host_view.ts), never another argument of
 * the server: an argument naming a hidden host path stays hidden, and the
 * plan carries a notice naming the flag that shows it.
 *
 * The working directory: the server's (a profile's `cwd`, else the
 * caller's) when the sandbox shows it. When it is hidden, a declared `cwd`
 * or an argument naming a path relative to it (`.`, `./data`) is an error
 * with a hint; otherwise the server starts in `/`, with a notice.
 *
 * Pure: the file system is seen only through the {@linkcode HostView}
 * callbacks, and only for the paths above, so jn's own read permission need
 * not cover the system directories.
 *
 * @module
 */

import { dirname, isAbsolute, resolve } from "node:path";
import { SandboxError } from "../errors.ts";
import type { StdioLaunch } from "../launch/spec.ts";
import { type HostView, isBroad, outermost, peek, peekReal, within } from "./host_view.ts";
import type { LauncherMounts } from "./launcher_state.ts";
import type { SandboxPolicy } from "./policy.ts";
import { findScript, installRoot, scriptMounts } from "./runtime_mounts.ts";

export type { HostView } from "./host_view.ts";
export { within } from "./host_view.ts";
export { installRoot } from "./runtime_mounts.ts";

/** What the server sees. Every path is absolute. */
export interface SandboxPlan {
  /** Linux: directories bound read-only where they exist; nothing else of / is there. */
  system: string[];
  /** macOS: directories denied (seatbelt cannot take them away). */
  hide: string[];
  /** The private, writable, empty temporary directory (Linux: a tmpfs on /tmp). */
  tmp: string;
  /** Paths visible read-only. */
  read: string[];
  /** Paths visible and writable (they exist, or are listed in `create`). */
  write: string[];
  /** jn's own caches in `write` that do not exist yet: create them first. */
  create: string[];
  /** Linux: writable directories that start empty and vanish with the server (tmpfs). */
  scratch: string[];
  /** Whether the server may use the network. */
  network: boolean;
  /** The server's working directory inside the sandbox. */
  chdir: string;
  /** What jn left out that the server may have wanted, each with the flag that grants it. */
  notices: string[];
}

/** Linux: the system directories a server may read. */
export const LINUX_SYSTEM = [
  "/usr",
  "/bin",
  "/sbin",
  "/lib",
  "/lib32",
  "/lib64",
  "/libx32",
  "/etc",
  "/opt",
  // The store only: /nix/var holds the Nix daemon's socket.
  "/nix/store",
];
// macOS has no private /tmp: the server gets a fresh TMPDIR instead (seatbelt.ts).
const DARWIN_HIDDEN = [
  "/Users",
  "/Volumes",
  "/private/tmp",
  "/private/var/folders",
  "/private/var/tmp",
];

const NO_MOUNTS: LauncherMounts = { read: [], write: [], scratch: [] };

/**
 * The plan for a launch under a policy whose paths are already absolute
 * (see `resolvePolicyPaths`). A declared path that does not exist is an error.
 */
export function planSandbox(
  launch: StdioLaunch,
  policy: SandboxPolicy,
  host: HostView,
  launcher: LauncherMounts = NO_MOUNTS,
): SandboxPlan {
  const home = host.env.HOME;
  const linux = host.os !== "darwin";
  const tmp = linux ? "/tmp" : "/private/tmp";
  const hide = linux ? [] : [...DARWIN_HIDDEN];
  if (!linux && home && isAbsolute(home) && !hide.some((dir) => within(home, dir))) {
    hide.push(home);
  }
  const visibleRoots = [...LINUX_SYSTEM, "/dev", "/proc"];
  const isHidden = (path: string) =>
    linux
      ? within(path, tmp) || !visibleRoots.some((root) => within(path, root))
      : hide.some((root) => within(path, root));

  for (const path of [...policy.read, ...policy.write]) {
    if (!host.stat(path)) {
      throw new SandboxError(
        `Cannot sandbox "${launch.label}": the path "${path}" does not exist`,
        {
          hint: "create it first, or remove it from the sandbox's read/write list",
        },
      );
    }
  }
  const cwd = launch.cwd ?? host.cwd;
  const implicit = [...launcher.read];
  const script = findScript(launch, cwd);
  if (script) implicit.push(...scriptMounts(script, host));
  if (host.commandPath) {
    for (const path of new Set([host.commandPath, peekReal(host, host.commandPath)])) {
      if (path && isHidden(path)) implicit.push(installRoot(path, home, host));
    }
  }
  if (launch.cwd && peek(host, launch.cwd) === "dir" && !isBroad(launch.cwd, home)) {
    implicit.push(launch.cwd);
  }
  const network = policy.network !== false;
  if (network) {
    // DNS: /etc/resolv.conf often points into /run (systemd-resolved).
    const resolv = host.realPath("/etc/resolv.conf");
    if (resolv && isHidden(resolv)) implicit.push(dirname(resolv));
  }
  const write = unique([...policy.write, ...launcher.write]);
  const declared = [...policy.read, ...write];
  // Implicit paths add nothing inside a declared one (and never make a writable path read-only).
  const extra = outermost(
    implicit.filter((path) => isHidden(path) && !declared.some((root) => within(path, root))),
  );
  const read = unique([...policy.read, ...extra]).filter((path) => !write.includes(path));
  const scratch = [...launcher.scratch];
  const canSee = (path: string) =>
    !isHidden(path) || [...read, ...write, ...scratch].some((root) => within(path, root));

  const notices: string[] = [];
  launch.args.forEach((arg, index) => {
    if (index === script?.index || !isAbsolute(arg)) return;
    const kind = peek(host, arg);
    if (!kind || canSee(arg)) return;
    const what = kind === "other" ? " (a socket or device)" : "";
    notices.push(
      `the sandbox hides "${arg}"${what}, an argument of the server: ` +
        `grant it with --sandbox-read ${arg} (or --sandbox-write ${arg})`,
    );
  });
  let chdir = cwd;
  if (!canSee(cwd)) {
    if (launch.cwd && peek(host, launch.cwd) !== "dir") {
      throw new SandboxError(
        `Cannot sandbox "${launch.label}": its working directory "${cwd}" does not exist`,
        { hint: 'create it, or fix "cwd" in the profile' },
      );
    }
    if (launch.cwd) {
      throw new SandboxError(
        `Cannot sandbox "${launch.label}": its working directory "${cwd}" is hidden in the sandbox`,
        {
          hint: `jn does not give a directory this broad on its own: --sandbox-read ${cwd} ` +
            `gives it, or set a narrower "cwd" in the profile`,
        },
      );
    }
    const relative = launch.args.find((arg, index) =>
      index === script?.index ? !isAbsolute(arg) : namesRelativePath(arg, cwd, host)
    );
    if (relative !== undefined) {
      throw new SandboxError(
        `Cannot sandbox "${launch.label}": its argument "${relative}" is a path in the working ` +
          `directory ${cwd}, which the sandbox hides`,
        {
          hint: "show the directory with --sandbox-read . (--sandbox-write . to let the " +
            "server write there), or pass a path you grant with --sandbox-read",
        },
      );
    }
    chdir = "/";
    notices.push(
      `the server starts in /: your working directory ${cwd} is hidden in the sandbox ` +
        "(--sandbox-read . shows it)",
    );
  }
  return {
    system: linux ? [...LINUX_SYSTEM] : [],
    hide,
    tmp,
    read,
    write,
    create: launcher.write.filter((path) => !peek(host, path)),
    scratch,
    network,
    chdir,
    notices,
  };
}

/** Whether the server sees `path` (on the host) under `plan`. */
export function visibleIn(plan: SandboxPlan, path: string): boolean {
  const granted = [...plan.read, ...plan.write, ...plan.scratch];
  if (granted.some((root) => within(path, root))) return true;
  if (plan.system.length === 0) return !plan.hide.some((root) => within(path, root));
  return !within(path, plan.tmp) &&
    [...plan.system, "/dev", "/proc"].some((root) => within(path, root));
}

/**
 * Whether a server argument names a path relative to the working directory:
 * `.`, `..`, `./…`, `../…`, or a relative path with a `/` that exists there.
 * (A bare name such as `data` is not recognised: write `./data`.)
 */
function namesRelativePath(arg: string, cwd: string, host: HostView): boolean {
  if (arg === "." || arg === ".." || arg.startsWith("./") || arg.startsWith("../")) return true;
  if (arg.startsWith("-") || arg.startsWith("@") || isAbsolute(arg) || !arg.includes("/")) {
    return false;
  }
  return !arg.includes("://") && peek(host, resolve(cwd, arg)) !== undefined;
}

function unique(paths: string[]): string[] {
  return [...new Set(paths)];
}
