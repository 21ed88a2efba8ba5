/**
 * The root-only secrets of the visible system directories. A server in the
 * bubblewrap sandbox sees `/etc` read-only; when jn runs as root, the server
 * is root inside its user namespace too and could read files only root may
 * read (`/etc/shadow`, the SSH host keys). jn hides the well-known ones
 * behind empty ones, always (for a normal user they are unreadable anyway,
 * so the mask costs nothing): a file behind `/dev/null` (reading it fails),
 * a directory behind an empty read-only tmpfs.
 *
 * Not every root-only file of `/etc` is listed: docs/sandbox.md says to run
 * jn as a normal user.
 *
 * @module
 */

import { join } from "node:path";
import { type HostView, peek, peekReal, within } from "./host_view.ts";

/** A path of the visible system hidden behind an empty one. */
export interface SandboxMask {
  /** The hidden path. */
  path: string;
  /** What hides it: an empty file or an empty directory. */
  kind: "file" | "dir";
}

/** Root-only secrets of /etc (files and directories), where they exist. */
export const ROOT_SECRETS: readonly string[] = [
  "/etc/shadow",
  "/etc/shadow-",
  "/etc/gshadow",
  "/etc/gshadow-",
  "/etc/sudoers",
  "/etc/sudoers.d",
  "/etc/security/opasswd",
  "/etc/ssl/private",
  "/etc/krb5.keytab",
  "/etc/NetworkManager/system-connections",
  "/etc/wireguard",
  "/etc/ppp/chap-secrets",
  "/etc/ppp/pap-secrets",
  "/etc/credstore",
  "/etc/credstore.encrypted",
  "/etc/master.passwd",
];

/**
 * The masks of the root-only secrets that exist under `system` (by their
 * real path), SSH host keys (`/etc/ssh/*_key`) included.
 */
export function rootSecretMasks(host: HostView, system: readonly string[]): SandboxMask[] {
  const keys = (host.list?.("/etc/ssh") ?? [])
    .filter((name) => /^ssh_host_\w+_key$/.test(name))
    .map((name) => join("/etc/ssh", name));
  const masks = new Map<string, SandboxMask>();
  for (const path of [...ROOT_SECRETS, ...keys]) {
    const kind = peek(host, path);
    const real = peekReal(host, path);
    if (!real || (kind !== "file" && kind !== "dir")) continue;
    if (!system.some((root) => within(real, root))) continue;
    masks.set(real, { path: real, kind });
  }
  return [...masks.values()];
}
