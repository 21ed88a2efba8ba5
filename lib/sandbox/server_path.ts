/**
 * The PATH of a server jn starts unsandboxed. A server's launcher looks up
 * more than its own name on that PATH: `npx` is `#!/usr/bin/env node`, a
 * script runs `python3`, npm runs `sh` and `git`. An entry that names the
 * directory jn runs in — often a repository, which no trust covers and
 * which can change after trust — would run its files, unconfined.
 *
 * Guarantees, on the server's PATH as it starts (the profile's `env.PATH`,
 * expanded, when it sets one; else the caller's):
 * - an entry that is relative or empty is dropped (it names the directory
 *   the server runs in);
 * - for a PATH the profile sets, an absolute entry is dropped when it lies
 *   inside one of the `local` directories (for a project profile: the
 *   directory jn runs in, which holds its `.jn`, as named and by its real
 *   path), judged with its `.`/`..` steps resolved, by its real path (a
 *   symlink that leads inside is inside) and by the identity (device and
 *   inode) of it and its parents (a bind-mounted alias); `${PWD}/tools` is
 *   such an entry once expanded. So is any entry under `/proc` or `/dev`
 *   (`/proc/self/cwd/tools`), whoever wrote it. A user's own PATH (and a user's own profile) keeps
 *   its absolute entries: they are the user's choice;
 * - what is kept keeps its order; the server's command, found in it, is
 *   started by its path (or refused when only a dropped entry has it).
 *
 * Under a sandbox the PATH stays as written: what it finds runs confined.
 *
 * @module
 */

import { dirname, isAbsolute, normalize } from "node:path";
import { isInside } from "./code_loading_env.ts";
import { realPath } from "./host.ts";

/** A PATH with the entries jn does not start programs from taken out. */
export interface JudgedPath {
  /** The entries kept, joined again. */
  kept: string;
  /** The entries taken out, as written. */
  dropped: string[];
}

/**
 * Splits `path` into what a server started unsandboxed may keep and what it
 * may not (see the module doc); `local` are absolute directories.
 *
 * @example
 * ```ts
 * judgePath("tools:/srv/p/bin:/usr/bin", ["/srv/p"]);
 * // { kept: "/usr/bin", dropped: ["tools", "/srv/p/bin"] }
 * ```
 */
export function judgePath(path: string, local: readonly string[]): JudgedPath {
  const roots = local.flatMap((dir) => [normalize(dir), real(dir)])
    .filter((dir): dir is string => dir !== undefined);
  const ids = new Set(roots.map(identity).filter((id) => id !== undefined));
  const kept: string[] = [];
  const dropped: string[] = [];
  for (const entry of path.split(":")) {
    const ok = isAbsolute(entry) && !PSEUDO.some((root) => isInside(normalize(entry), root)) &&
      ![normalize(entry), real(entry)].some((dir) =>
        dir !== undefined &&
        (roots.some((root) => isInside(dir, root)) || (ids.size > 0 && underAny(dir, ids)))
      );
    (ok ? kept : dropped).push(entry);
  }
  return { kept: kept.join(":"), dropped };
}

/**
 * File systems whose paths name other places (`/proc/self/cwd` is the
 * directory a process runs in, `/dev/fd/3` an open file): no PATH entry.
 */
const PSEUDO = ["/proc", "/dev"];

/** Whether `dir` or one of its parents is one of the directories `ids` (a bind-mounted alias). */
function underAny(dir: string, ids: Set<string>): boolean {
  for (let at = dir;; at = dirname(at)) {
    const id = identity(at);
    if (id !== undefined && ids.has(id)) return true;
    if (at === dirname(at)) return false;
  }
}

/** A directory's device and inode, when jn may see it. */
function identity(path: string): string | undefined {
  try {
    const info = Deno.statSync(path);
    return info.ino === null ? undefined : `${info.dev}:${info.ino}`;
  } catch {
    return undefined;
  }
}

function real(path: string): string | undefined {
  try {
    return realPath(path);
  } catch {
    return undefined; // not there (or not ours to see): judged as written
  }
}
