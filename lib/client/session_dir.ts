/**
 * Where a user's sessions live, and whether that place is private — the
 * part of session_paths.ts a calling `jn` needs before it loads anything
 * else (lib/cli/forward_lookup.ts, lib/cli/forward.ts):
 * `$XDG_RUNTIME_DIR/jn` when the system gives the user a runtime
 * directory, else `~/.local/jn/sessions`.
 *
 * Guarantees: a directory is private only when it is a real directory (not
 * a symlink), owned by the user running jn, with no permission for group or
 * others, and every folder above it, from `/` down (symlinks resolved), is
 * owned by that user or root and writable by no one else unless sticky (as
 * OpenSSH's StrictModes): no other user can then put another directory in
 * its place. Who runs jn is told by `/proc/self`, else by a file jn creates;
 * when neither tells, nothing is private. The cheap look a calling `jn`
 * takes first ({@linkcode privacyProblemNow}) reads one `lstat`; the whole
 * check ({@linkcode checkPrivateDir}) runs before anything is sent.
 *
 * @module
 */

import { ownUid } from "../profile/own_user.ts";
import { sessionDirCandidates } from "../profile/paths.ts";

/** The sessions directory for this environment (not created); undefined without HOME. */
export function sessionDirOf(env: Record<string, string>): string | undefined {
  return sessionDirCandidates(env)[0];
}

/** A sessions directory found private: its real path, what it was when checked, who runs jn. */
export interface CheckedDir {
  path: string;
  dev: number;
  ino: number | null;
  uid: number;
}

/**
 * The sessions directory `dir`, symlinks resolved, when it and every folder
 * above it are private (see the module's guarantees); else why not
 * (`unknownUser`: jn's permissions tell neither `/proc/self` nor a file of
 * its own, so no directory can be checked). Throws
 * when `dir` cannot be reached (absent, no permission).
 */
export async function checkPrivateDir(
  dir: string,
): Promise<CheckedDir | { problem: string; unknownUser?: true }> {
  const uid = await ownUid();
  if (uid === undefined) return { problem: "which user runs jn cannot be told", unknownUser: true };
  // The directory itself is never a symlink; the folders above it are taken as they resolve.
  if ((await Deno.lstat(dir)).isSymlink) return { problem: "it is a symbolic link" };
  const path = await Deno.realPath(dir);
  const info = await Deno.lstat(path);
  const problem = privacyOf(info, uid);
  if (problem !== undefined) return { problem };
  const parts = path.split("/").filter(Boolean);
  for (let depth = 0; depth < parts.length; depth++) {
    const above = `/${parts.slice(0, depth).join("/")}`;
    const why = folderProblem(await Deno.lstat(above), uid);
    if (why !== undefined) return { problem: `the folder ${above} above it ${why}` };
  }
  return { path, dev: info.dev, ino: info.ino, uid };
}

/**
 * The cheap first look of a calling `jn` (lib/cli/forward_lookup.ts, on
 * every start): why `dir` itself is not private, or undefined — one
 * `lstat`, the owner checked where `/proc/self` tells who runs jn.
 * {@linkcode checkPrivateDir} decides before anything is sent.
 */
export function privacyProblemNow(dir: string): string | undefined {
  let uid: number | undefined;
  try {
    uid = Deno.statSync("/proc/self").uid ?? undefined;
  } catch { /* not Linux, or Deno's permissions keep /proc out: checkPrivateDir finds out */ }
  return privacyOf(Deno.lstatSync(dir), uid);
}

function privacyOf(info: Deno.FileInfo, uid: number | undefined): string | undefined {
  if (info.isSymlink) return "it is a symbolic link";
  if (!info.isDirectory) return "it is not a directory";
  if (info.uid !== null && uid !== undefined && info.uid !== uid) {
    return `it belongs to another user (uid ${info.uid})`;
  }
  if (info.mode !== null && (info.mode & 0o077) !== 0) {
    return `its mode is ${(info.mode & 0o777).toString(8)}, not 700`;
  }
  return undefined;
}

/** Why another user could replace what is in this folder, or undefined. */
function folderProblem(info: Deno.FileInfo, uid: number): string | undefined {
  if (info.isSymlink) return "is a symbolic link";
  if (!info.isDirectory) return "is not a directory";
  if (info.uid !== null && info.uid !== uid && info.uid !== 0) {
    return `belongs to another user (uid ${info.uid})`;
  }
  const mode = info.mode ?? 0;
  if ((mode & 0o022) !== 0 && (mode & 0o1000) === 0) {
    return `may be written by others (mode ${(mode & 0o7777).toString(8)})`;
  }
  return undefined;
}
