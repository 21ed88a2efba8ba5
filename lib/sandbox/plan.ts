/**
 * What a sandboxed server sees, worked out once for both sandbox tools
 * (bubblewrap on Linux, sandbox-exec on macOS): which paths are visible
 * read-only or writable, and whether the network is reachable.
 *
 * Linux builds the server's file system from an allow-list: the system
 * directories (programs, libraries, /etc) read-only, a private /tmp, fresh
 * /dev and /proc, and nothing else: no home directories, no /run (sockets),
 * no /mnt, /media, /srv, /var, no other user data. macOS has no mount
 * namespaces, so there the user's places are denied instead (`hide`).
 *
 * On top of that come the declared paths, and, without being declared, the
 * server's own files read-only: the directory of every absolute path in its
 * argv, its working directory, the installation its launcher lives in (e.g.
 * `~/.nvm` for an nvm node); and the launcher's cache, writable (`~/.npm`
 * for npx, uv's cache and data directories for uvx, Deno's cache for deno).
 *
 * Pure: the file system is seen only through the `stat`/`realPath` callbacks,
 * and only for the paths above, so jn's own read permission need not cover
 * the system directories.
 *
 * @module
 */

import { basename, dirname, isAbsolute, join, sep } from "node:path";
import { SandboxError } from "../errors.ts";
import type { StdioLaunch } from "../launch/spec.ts";
import type { SandboxPolicy } from "./policy.ts";

/** What the planner may ask about the host. */
export interface HostView {
  os: "linux" | "darwin";
  /** The caller's working directory (absolute). */
  cwd: string;
  /** The environment the server will get (HOME, DENO_DIR, XDG_* decide cache paths). */
  env: Record<string, string>;
  /** The launcher's real path, found on the server's PATH (symlinks resolved). */
  commandPath?: string;
  /** `"file"`, `"dir"` or `undefined` when nothing is there. */
  stat: (path: string) => "file" | "dir" | undefined;
  /** The path with symlinks resolved, or `undefined` when it does not exist. */
  realPath: (path: string) => string | undefined;
}

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
  /** Launcher caches in `write` that do not exist yet: create them first. */
  create: string[];
  /** Linux: writable directories that start empty and vanish with the server (tmpfs). */
  scratch: string[];
  /** Whether the server may use the network. */
  network: boolean;
  /** The server's working directory inside the sandbox. */
  chdir: string;
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
  "/nix",
];
// macOS has no private /tmp: the server gets a fresh TMPDIR instead (seatbelt.ts).
const DARWIN_HIDDEN = [
  "/Users",
  "/Volumes",
  "/private/tmp",
  "/private/var/folders",
  "/private/var/tmp",
];

/**
 * The plan for a launch under a policy whose paths are already absolute
 * (see `resolvePolicyPaths`). A declared path that does not exist is an error.
 */
export function planSandbox(
  launch: StdioLaunch,
  policy: SandboxPolicy,
  host: HostView,
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
  const read: string[] = [...policy.read];
  for (const arg of launch.args) {
    const kind = isAbsolute(arg) ? host.stat(arg) : undefined;
    if (kind) read.push(kind === "dir" ? arg : dirname(arg));
  }
  if (launch.cwd && host.stat(launch.cwd) === "dir") read.push(launch.cwd);
  if (host.commandPath && isHidden(host.commandPath)) {
    read.push(installRoot(host.commandPath, home));
  }
  const caches = launcherCaches(basename(launch.command), host);
  const write = [...policy.write, ...caches];
  const network = policy.network !== false;
  if (network) {
    // DNS: /etc/resolv.conf often points into /run (systemd-resolved).
    const resolv = host.realPath("/etc/resolv.conf");
    if (resolv && isHidden(resolv)) read.push(dirname(resolv));
  }
  const visible = [...read, ...write];
  const canSee = (path: string) => !isHidden(path) || visible.some((v) => within(path, v));
  const wanted = launch.cwd ?? host.cwd;
  return {
    system: linux ? [...LINUX_SYSTEM] : [],
    hide,
    tmp,
    read: unique(read).filter((path) => !write.includes(path)),
    write: unique(write),
    create: caches.filter((path) => !statOrNothing(host, path)),
    scratch: [],
    network,
    chdir: canSee(wanted) ? wanted : "/",
  };
}

/** Whether `path` is `root` or below it. */
export function within(path: string, root: string): boolean {
  if (root === sep) return true;
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

/**
 * The directory a hidden launcher needs to run: `~/.nvm` for
 * `~/.nvm/versions/node/v20/bin/node`, the prefix above a `bin` directory
 * elsewhere (a virtualenv, `/opt/tool`), the binary's own directory for
 * `~/.local/bin/x` (never all of `~/.local`).
 */
export function installRoot(commandPath: string, home?: string): string {
  const dir = dirname(commandPath);
  if (home && within(commandPath, home) && commandPath !== home) {
    const top = commandPath.slice(home.length + 1).split(sep)[0];
    if (![".local", "bin", ".config"].includes(top)) return join(home, top);
  }
  const prefix = dirname(dir);
  const broad = [home, home && join(home, ".local"), sep].filter(Boolean);
  return basename(dir) === "bin" && !broad.includes(prefix) ? prefix : dir;
}

/** Writable state a launcher needs to work at all (its package cache). */
function launcherCaches(command: string, host: HostView): string[] {
  const env = host.env;
  const home = env.HOME;
  if (!home) return [];
  const name = command.replace(/\.(exe|cmd)$/i, "");
  const cacheHome = env.XDG_CACHE_HOME ||
    (host.os === "darwin" ? join(home, "Library", "Caches") : join(home, ".cache"));
  const dataHome = env.XDG_DATA_HOME || join(home, ".local", "share");
  switch (name) {
    case "npx":
    case "npm":
      return [env.npm_config_cache || join(home, ".npm")];
    case "uvx":
    case "uv":
      return [env.UV_CACHE_DIR || join(cacheHome, "uv"), join(dataHome, "uv")];
    case "deno":
      return [env.DENO_DIR || join(cacheHome, "deno")];
    default:
      return [];
  }
}

/** `host.stat`, with "jn may not look" read as "not there" (for paths jn adds itself). */
function statOrNothing(host: HostView, path: string): "file" | "dir" | undefined {
  try {
    return host.stat(path);
  } catch {
    return undefined;
  }
}

function unique(paths: string[]): string[] {
  return [...new Set(paths)];
}
