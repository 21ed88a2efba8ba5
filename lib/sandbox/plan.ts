/**
 * What a sandboxed server sees, worked out once for both sandbox tools
 * (bubblewrap on Linux, sandbox-exec on macOS): which of the user's
 * directories are hidden, which paths are visible read-only or writable, and
 * whether the network is reachable.
 *
 * The rule: the system (programs, libraries, /etc) stays readable; the places
 * where users keep their files (home directories, /tmp, /mnt, /media, /srv,
 * /run and its sockets) are hidden; declared paths come back on top. The
 * server's own files come back read-only without being declared: the
 * directory of every absolute path in its argv, its working directory, the
 * installation its launcher lives in (e.g. `~/.nvm` for an nvm node), and
 * the launcher's cache made writable (`~/.npm` for npx, uv's cache and tool
 * directories for uvx, Deno's cache for deno).
 *
 * Pure: the file system is seen only through the `stat`/`realPath` callbacks.
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

/** What the server sees. Every path is absolute and exists, unless listed in `create`. */
export interface SandboxPlan {
  /** Existing directories replaced by an empty, read-only directory. */
  hide: string[];
  /** The private, writable, empty temporary directory (Linux: a tmpfs on /tmp). */
  tmp: string;
  /** Paths visible read-only (on top of `hide`). */
  read: string[];
  /** Paths visible and writable. */
  write: string[];
  /** Launcher caches in `write` that do not exist yet: create them first. */
  create: string[];
  /** Whether the server may use the network. */
  network: boolean;
  /** The server's working directory inside the sandbox. */
  chdir: string;
}

const LINUX_HIDDEN = ["/home", "/root", "/run", "/mnt", "/media", "/srv", "/var/tmp"];
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
  const tmp = host.os === "darwin" ? "/private/tmp" : "/tmp";
  const hidden = [...(host.os === "darwin" ? DARWIN_HIDDEN : LINUX_HIDDEN)];
  if (home && isAbsolute(home)) hidden.push(home);
  const runtimeDir = host.env.XDG_RUNTIME_DIR;
  if (runtimeDir && isAbsolute(runtimeDir)) hidden.push(runtimeDir);
  const hide = unique(hidden.filter((path) => host.stat(path) === "dir"))
    .filter((path, _, all) => !all.some((other) => other !== path && within(path, other)));
  const covered = [...hide, tmp];
  const isHidden = (path: string) => covered.some((root) => within(path, root));

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
    hide,
    tmp,
    read: unique(read).filter((path) => !write.includes(path)),
    write: unique(write),
    create: caches.filter((path) => !host.stat(path)),
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

function unique(paths: string[]): string[] {
  return [...new Set(paths)];
}
