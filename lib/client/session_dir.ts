/**
 * Where a user's sessions live, and whether that place is private — the
 * part of session_paths.ts a calling `jn` needs before it loads anything
 * else (lib/cli/forward.ts): `$XDG_RUNTIME_DIR/jn` when the system gives
 * the user a runtime directory, else `~/.local/jn/sessions`.
 *
 * Guarantees: a directory is private only when it is a real directory (not
 * a symlink), owned by the user running jn, with no permission for group or
 * others; reading nothing but its `lstat` and the process's own uid.
 *
 * @module
 */

import { isAbsolutePath, joinPath, userJnDir } from "../profile/paths.ts";

/** The sessions directory for this environment (not created); undefined without HOME. */
export function sessionDirOf(env: Record<string, string>): string | undefined {
  const runtime = env.XDG_RUNTIME_DIR;
  if (runtime && isAbsolutePath(runtime)) return joinPath(runtime, "jn");
  const home = userJnDir(env);
  return home === undefined ? undefined : joinPath(home, "sessions");
}

/** Why `dir` is not a private directory of this user, or undefined when it is. */
export async function privacyProblem(dir: string): Promise<string | undefined> {
  return privacyOf(await Deno.lstat(dir), await ownUid());
}

/**
 * {@linkcode privacyProblem} without waiting (a calling `jn` before it
 * loads anything: lib/cli/forward.ts); the owner is checked where
 * `/proc/self` tells who runs jn — elsewhere the kernel still keeps others
 * out of a directory no one else may enter.
 */
export function privacyProblemNow(dir: string): string | undefined {
  let uid: number | undefined;
  try {
    uid = Deno.statSync("/proc/self").uid ?? undefined;
  } catch { /* not Linux, or Deno's permissions keep /proc out */ }
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

let uidOnce: Promise<number | undefined> | undefined;

/**
 * The user id jn runs as, without the `sys` permission `Deno.uid()` needs:
 * the owner of `/proc/self` on Linux, else of a file jn creates.
 */
export function ownUid(): Promise<number | undefined> {
  uidOnce ??= (async () => {
    try {
      return (await Deno.stat("/proc/self")).uid ?? undefined;
    } catch { /* not Linux, or Deno's permissions keep /proc out */ }
    try {
      const probe = await Deno.makeTempFile({ prefix: "jn-uid-" });
      try {
        return (await Deno.stat(probe)).uid ?? undefined;
      } finally {
        await Deno.remove(probe).catch(() => {});
      }
    } catch {
      // Unknown: a directory only its owner can enter is still refused to others by the kernel.
      return undefined;
    }
  })();
  return uidOnce;
}
