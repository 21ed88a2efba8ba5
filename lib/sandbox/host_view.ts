/**
 * How the sandbox planner sees the host (through callbacks, so planning stays
 * pure and testable against a fake file system), and which host directories
 * are too broad for jn to give a server without being asked.
 *
 * Guarantees: {@linkcode isBroad} is true for `/`, every top-level directory
 * (`/home`, `/tmp`, `/root`, `/mnt`, …), the home directory and its parents,
 * the home's aggregate directories (`~/.cache`, `~/.config`, `~/.local`, …),
 * the shared temporary and runtime directories (`/var/tmp`, `/dev/shm`,
 * anything under `/run`), and macOS's `/Users` and temporary folders. jn never
 * binds such a directory implicitly; only `--sandbox-read`/`--sandbox-write`
 * can. {@linkcode isSensitive} adds the home's credential stores (`~/.ssh`,
 * `~/.aws`, `~/.config`, …): jn never reaches one through a symlink, and never
 * suggests one in a hint.
 *
 * @module
 */

import { dirname, join, sep } from "node:path";
import type { OwnUser } from "../profile/own_user.ts";
import type { PathKind } from "./host.ts";

/** What the planner may ask about the host. */
export interface HostView {
  os: "linux" | "darwin";
  /** The caller's working directory (absolute). */
  cwd: string;
  /**
   * jn's own environment, the caller's (HOME, DENO_DIR, XDG_* decide what is
   * broad and where caches are): never a profile's `env`, which is the server's.
   */
  env: Record<string, string>;
  /**
   * Who runs jn (its uid, its home in `/etc/passwd`), not from the
   * environment: where else its sessions may be (session_masks.ts).
   */
  user?: OwnUser;
  /** The launcher as found on jn's own PATH (symlinks not resolved). */
  commandPath?: string;
  /** What is at a path (symlinks followed), or `undefined` when nothing is there. */
  stat: (path: string) => PathKind | undefined;
  /** The path with symlinks resolved, or `undefined` when it does not exist. */
  realPath: (path: string) => string | undefined;
  /** The first bytes of a file as text (manifests, script headers); `undefined` if unreadable. */
  readHead?: (path: string, maxBytes: number) => string | undefined;
  /** The names in a directory; `[]` when it cannot be listed. */
  list?: (path: string) => string[];
}

/** `host.stat`, with "jn may not look" read as "not there" (for paths jn looks up itself). */
export function peek(host: HostView, path: string): PathKind | undefined {
  try {
    return host.stat(path);
  } catch {
    return undefined;
  }
}

/** `host.realPath`, with "jn may not look" read as "not there". */
export function peekReal(host: HostView, path: string): string | undefined {
  try {
    return host.realPath(path);
  } catch {
    return undefined;
  }
}

/** Whether `path` is `root` or below it. */
export function within(path: string, root: string): boolean {
  if (root === sep) return true;
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

const HOME_AGGREGATES = [
  ".cache",
  ".config",
  ".local",
  ".local/bin",
  ".local/lib",
  ".local/share",
  ".local/state",
  "Library",
  "Library/Caches",
];
const SHARED = [
  "/var/tmp",
  "/dev/shm",
  "/run",
  "/var/run",
  "/proc",
  "/sys",
  "/dev",
  "/private/tmp",
  "/private/var",
];

/** Whether jn must never give `path` to a server without being asked (see the module doc). */
export function isBroad(path: string, home?: string): boolean {
  if (path.split(sep).filter(Boolean).length <= 1) return true;
  if (SHARED.some((root) => within(path, root))) return true;
  if (home && home !== sep) {
    if (within(home, path)) return true; // the home directory or one of its parents
    if (HOME_AGGREGATES.some((name) => path === join(home, name))) return true;
  }
  return false;
}

/**
 * The credential stores of a home directory (relative to it): keys, tokens,
 * registry and cloud credentials. A path in one of them is sensitive.
 */
export const CREDENTIAL_STORES: readonly string[] = [
  ".ssh",
  ".gnupg",
  ".aws",
  ".azure",
  ".config",
  ".cargo",
  ".docker",
  ".kube",
  ".gem",
  ".m2",
  ".gradle",
  ".terraform.d",
  ".password-store",
  ".pki",
  ".mozilla",
  ".local/share/keyrings",
  ".netrc",
  ".npmrc",
  ".pypirc",
  ".git-credentials",
  ".pgpass",
  ".my.cnf",
  ".vault-token",
  "Library/Keychains",
];

/**
 * Whether `path` is broad ({@linkcode isBroad}) or lies in one of the home's
 * credential stores ({@linkcode CREDENTIAL_STORES}): never reached through a
 * symlink, never suggested.
 */
export function isSensitive(path: string, home?: string): boolean {
  if (isBroad(path, home)) return true;
  if (!home || home === sep) return false;
  return CREDENTIAL_STORES.some((name) => within(path, join(home, name)));
}

/** The ancestors of `dir` (itself first) that are not broad, stopping at the first broad one. */
export function narrowAncestors(dir: string, home?: string): string[] {
  const result: string[] = [];
  for (let current = dir; !isBroad(current, home); current = dirname(current)) {
    result.push(current);
  }
  return result;
}

/** `paths` without duplicates and without any path inside another one of them. */
export function outermost(paths: string[]): string[] {
  const unique = [...new Set(paths)];
  return unique.filter((path) => !unique.some((other) => other !== path && within(path, other)));
}
