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
 *   path), judged with its `.`/`..` steps resolved and again by its real
 *   path (a symlink that leads inside is inside); `${PWD}/tools` is such an
 *   entry once expanded. A user's own PATH (and a user's own profile) keeps
 *   its absolute entries: they are the user's choice;
 * - what is kept keeps its order; the server's command, found in it, is
 *   started by its path (or refused when only a dropped entry has it).
 *
 * Under a sandbox the PATH stays as written: what it finds runs confined.
 *
 * @module
 */

import { isAbsolute, normalize } from "node:path";
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
  const roots = [...new Set(local.flatMap((dir) => [normalize(dir), real(dir)]))]
    .filter((dir): dir is string => dir !== undefined);
  const kept: string[] = [];
  const dropped: string[] = [];
  for (const entry of path.split(":")) {
    const ok = isAbsolute(entry) &&
      ![normalize(entry), real(entry)].some((dir) =>
        dir !== undefined && roots.some((root) => isInside(dir, root))
      );
    (ok ? kept : dropped).push(entry);
  }
  return { kept: kept.join(":"), dropped };
}

function real(path: string): string | undefined {
  try {
    return realPath(path);
  } catch {
    return undefined; // not there (or not ours to see): judged as written
  }
}
