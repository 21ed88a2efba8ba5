/**
 * What a sandboxed server sees, worked out once for both sandbox tools
 * (bubblewrap on Linux, sandbox-exec on macOS): which paths are visible
 * read-only or writable, where the server starts, and whether the network is
 * reachable.
 *
 * Linux builds the server's file system from an allow-list: the system
 * directories (programs, libraries, /etc) read-only, a private /tmp, fresh
 * /dev and /proc, and nothing else: no home directories, no /run (sockets),
 * no /mnt, /media, /srv, /var, no other user data. The root-only secrets of
 * /etc are masked (root_secrets.ts), and so, on both systems and under any
 * grant, are the user's sessions folders (session_masks.ts). macOS has no
 * mount namespaces, so there the user's places are denied instead (`hide`).
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
 * The profile's own directory stays read-only even inside a writable path
 * (`readOnly`): jn runs its sampling command from there, so a server must
 * not be able to rewrite what that runs.
 *
 * Symlinks (real_paths.ts, real_mounts.ts): every path is bound at its real
 * path, and judged there. An implicit path whose real path is broad, or that reaches a
 * credential store through a symlink, or that leads out of a launcher's
 * package tree, is left out with a notice. A declared path or a profile's
 * `cwd` that reaches a broad or credential directory through a symlink is an
 * error; so is a profile's path that is `/`, the home directory or one of
 * its parents (only the command line gives those). Where the runtime uses a
 * symlink's own path, the sandbox gets the same symlink (`links`).
 *
 * The working directory (working_dir.ts): the server's (a profile's `cwd`,
 * else the caller's, by its real path) when the sandbox shows it. When it is
 * hidden, a declared `cwd` or an argument naming a path relative to it (`.`,
 * `./data`) is an error with a hint; otherwise the server starts in `/`,
 * with a notice.
 *
 * Pure: the file system is seen only through the {@linkcode HostView}
 * callbacks, and only for the paths above, so jn's own read permission need
 * not cover the system directories.
 *
 * @module
 */

import { isAbsolute } from "node:path";
import type { StdioLaunch } from "../launch/spec.ts";
import { type HostView, outermost, peek, within } from "./host_view.ts";
import type { LauncherMounts } from "./launcher_state.ts";
import type { SandboxLink } from "./real_mounts.ts";
import type { SandboxPolicy } from "./policy.ts";
import { RealMounts } from "./real_mounts.ts";
import { pathJudge } from "./real_paths.ts";
import { rootSecretMasks, type SandboxMask } from "./root_secrets.ts";
import { findScript, installRoot, scriptMounts } from "./runtime_mounts.ts";
import { sessionMasks } from "./session_masks.ts";
import { startDir } from "./working_dir.ts";

export type { HostView } from "./host_view.ts";
export { within } from "./host_view.ts";
export type { SandboxLink } from "./real_mounts.ts";
export type { SandboxMask } from "./root_secrets.ts";
export { installRoot } from "./runtime_mounts.ts";

/** What the server sees. Every path is absolute. */
export interface SandboxPlan {
  /** Linux: directories bound read-only where they exist; nothing else of / is there. */
  system: string[];
  /** macOS: directories denied (seatbelt cannot take them away). */
  hide: string[];
  /** The private, writable, empty temporary directory (Linux: a tmpfs on /tmp). */
  tmp: string;
  /** Paths visible read-only (real paths). */
  read: string[];
  /** Paths visible and writable (they exist, or are listed in `create`; real paths). */
  write: string[];
  /** jn's own directories not there yet (caches in `write`, masked sessions folders): make them. */
  create: string[];
  /** Linux: writable directories that start empty and vanish with the server (tmpfs). */
  scratch: string[];
  /** Linux: symlinks to `read`/`write` paths, where the runtime uses the link's path. */
  links?: SandboxLink[];
  /** Hidden behind empty ones (macOS: denied): root-only secrets (Linux), the sessions folders. */
  mask?: SandboxMask[];
  /** Whether the server may use the network. */
  network: boolean;
  /** The server's working directory inside the sandbox. */
  chdir: string;
  /** What jn left out that the server may have wanted, each with the flag that grants it. */
  notices: string[];
  /**
   * Directories inside a writable path that stay read-only (also in `read`,
   * bound after the writable path around them): the profile's own directory.
   */
  protect?: string[];
}

/** Options of {@linkcode planSandbox}. */
export interface PlanOptions {
  /**
   * The declared paths the user typed on the command line (`--sandbox-read`,
   * `--sandbox-write`; absolute, like the policy's): the user's own choice,
   * so one naming the home directory or `/` is given. Any other declared
   * path (a profile's) is refused when it is `/`, the home directory or one
   * of its parents.
   */
  explicit?: readonly string[];
  /**
   * Directories that stay read-only even inside a path the server may write
   * (the profile's directory: jn runs its sampling command from there, and
   * its files are what trust covered). Given read-only only where a writable
   * path would show them; a path declared writable itself stays writable.
   */
  readOnly?: readonly string[];
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
  options: PlanOptions = {},
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
  const judge = pathJudge(host);
  const mounts = new RealMounts(host, judge, {
    label: launch.label,
    explicit: options.explicit,
    trees: launcher.trees,
  });
  const notices = mounts.notices;
  const declaredRead = policy.read.map((path) => mounts.declare(path, "--sandbox-read"));
  const declaredWrite = policy.write.map((path) => mounts.declare(path, "--sandbox-write"));
  const scratch = [...launcher.scratch];
  const launcherWrite: string[] = [];
  for (const dir of launcher.write) {
    const real = mounts.ownCache(dir);
    if (real === undefined) scratch.push(dir);
    else launcherWrite.push(real);
  }
  const trees = launcher.trees ?? [];
  const implicit = mounts.implicit;
  const admit = (path: string) => mounts.admit(path);
  launcher.read.forEach(admit);
  // The server's working directory by its real path (a profile's `cwd` may be a symlink).
  const cwd = launch.cwd === undefined ? host.cwd : (judge.real(launch.cwd) ?? launch.cwd);
  const script = findScript(launch, cwd);
  if (script) {
    const scriptTree = trees.find((root) => within(judge.real(script.path) ?? script.path, root));
    // Inside a launcher's install, nothing above it is the package's (a planted node_modules is not).
    scriptMounts(script, host)
      .filter((path) => !scriptTree || within(path, scriptTree))
      .forEach(admit);
  }
  if (host.commandPath) {
    const found = host.commandPath;
    const real = judge.real(found);
    const tree = trees.find((root) => within(found, root));
    if (tree && real && !within(real, tree)) {
      notices.push(`jn leaves out ${found}: it leads out of the package's install (${tree})`);
    } else {
      for (const path of new Set([found, real])) {
        if (path && isHidden(path)) admit(installRoot(path, home, host));
      }
    }
  }
  const cwdLinked = launch.cwd !== undefined && judge.viaLink(launch.cwd, cwd);
  const cwdGivable = !judge.broad(cwd) && !(cwdLinked && judge.sensitive(cwd));
  if (launch.cwd && peek(host, cwd) === "dir" && cwdGivable) implicit.push(cwd);
  const network = policy.network !== false;
  if (network) {
    // DNS: /etc/resolv.conf often points into /run (systemd-resolved): that file alone.
    const resolv = judge.real("/etc/resolv.conf");
    if (resolv && isHidden(resolv) && peek(host, resolv) === "file") implicit.push(resolv);
  }

  const write = unique([...declaredWrite, ...launcherWrite]);
  const declared = [...declaredRead, ...write];
  // Implicit paths add nothing inside a declared one (and never make a writable path read-only).
  const extra = outermost(
    implicit.filter((path) => isHidden(path) && !declared.some((root) => within(path, root))),
  );
  const protect = unique((options.readOnly ?? []).map((path) => judge.real(path) ?? path))
    .filter((path) => !write.includes(path) && write.some((root) => within(path, root)));
  const read = unique([...declaredRead, ...extra, ...protect]).filter((path) =>
    !write.includes(path)
  );
  const bound = [...read, ...write, ...scratch];
  const canSee = (path: string) => !isHidden(path) || bound.some((root) => within(path, root));
  const sandboxLinks = linux
    ? mounts.outerLinks().filter((link) =>
      isHidden(link.path) && !bound.some((root) => within(link.path, root))
    )
    : [];

  launch.args.forEach((arg, index) => {
    if (index === script?.index || !isAbsolute(arg)) return;
    const kind = peek(host, arg);
    const real = judge.real(arg);
    if (!kind || canSee(arg) || (real && canSee(real))) return;
    const what = kind === "other" ? " (a socket or device)" : "";
    notices.push(
      `the sandbox hides "${arg}"${what}, an argument of the server: ` +
        `grant it with --sandbox-read ${arg} (or --sandbox-write ${arg})`,
    );
  });
  const start = startDir(launch, host, {
    cwd,
    linked: cwdLinked,
    givable: cwdGivable,
    visible: canSee(cwd),
    scriptIndex: script?.index,
  });
  if (start.notice) notices.push(start.notice);
  const sessions = sessionMasks(host, canSee, bound, launch.label);
  const mask = [
    ...(linux ? rootSecretMasks(host, LINUX_SYSTEM) : []).filter((secret) =>
      !declared.some((root) => within(root, secret.path))
    ),
    ...sessions.mask,
  ];
  return {
    system: linux ? [...LINUX_SYSTEM] : [],
    hide,
    tmp,
    read,
    write,
    create: [...launcherWrite.filter((path) => !peek(host, path)), ...sessions.create],
    scratch,
    links: sandboxLinks,
    mask,
    network,
    chdir: start.chdir,
    notices,
    ...(protect.length > 0 ? { protect } : {}),
  };
}

/** Whether the server sees `path` (on the host) under `plan`. */
export function visibleIn(plan: SandboxPlan, path: string): boolean {
  const link = plan.links?.find((link) => within(path, link.path));
  if (link) path = link.target + path.slice(link.path.length);
  if (plan.mask?.some((secret) => within(path, secret.path))) return false;
  const granted = [...plan.read, ...plan.write, ...plan.scratch];
  if (granted.some((root) => within(path, root))) return true;
  if (plan.system.length === 0) return !plan.hide.some((root) => within(path, root));
  return !within(path, plan.tmp) &&
    [...plan.system, "/dev", "/proc"].some((root) => within(path, root));
}

function unique(paths: string[]): string[] {
  return [...new Set(paths)];
}
