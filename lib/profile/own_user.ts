/**
 * Who runs jn, told without the `sys` permission `Deno.uid()` needs: the
 * user id (the owner of `/proc/self` on Linux, else of a file jn creates)
 * and that user's home directory as the system's user database
 * (`/etc/passwd`) gives it — not `$HOME`, which whoever starts jn chooses.
 * Both are undefined when they cannot be told: jn then uses what it knows.
 *
 * Imports nothing, so the layers below lib/profile (the sandbox, which
 * hides every place this user's sessions may be) may read it too
 * (scripts/import_graph.ts ranks it on its own).
 *
 * @module
 */

/** The user running jn, as far as it can be told. */
export interface OwnUser {
  /** The real user id. */
  uid?: number;
  /** The home directory `/etc/passwd` gives for that user id (absolute). */
  home?: string;
}

let uidOnce: Promise<number | undefined> | undefined;

/**
 * The user id jn runs as: the owner of `/proc/self` on Linux, else of a
 * file jn creates; undefined when neither can be read.
 */
export function ownUid(): Promise<number | undefined> {
  uidOnce ??= (async () => {
    try {
      return (await Deno.stat("/proc/self")).uid ?? undefined;
    } catch { /* not Linux, or Deno's permissions keep /proc out */ }
    try {
      const probe = await Deno.makeTempFile({ prefix: "jn-uid-" });
      try {
        return (await Deno.lstat(probe)).uid ?? undefined;
      } finally {
        await Deno.remove(probe).catch(() => {});
      }
    } catch {
      return undefined;
    }
  })();
  return uidOnce;
}

/** The user id jn runs as and its home from `/etc/passwd` (each undefined when unknown). */
export async function ownUser(): Promise<OwnUser> {
  const uid = await ownUid();
  if (uid === undefined) return {};
  let text: string;
  try {
    text = await Deno.readTextFile("/etc/passwd");
  } catch {
    return { uid }; // no such file (macOS keeps users elsewhere), or jn may not read it
  }
  return { uid, home: passwdHome(text, uid) };
}

/** The home directory of the first `/etc/passwd` entry of `uid`, when absolute. */
export function passwdHome(passwd: string, uid: number): string | undefined {
  for (const line of passwd.split("\n")) {
    const fields = line.split(":");
    if (fields.length < 7 || fields[2] !== String(uid)) continue;
    return fields[5].startsWith("/") ? fields[5] : undefined;
  }
  return undefined;
}
