/**
 * A fake file system for the sandbox planner's unit tests: the planner sees
 * the host only through a HostView, so a plain map of paths is enough.
 * Parent directories of every listed path exist; `links` are symlinks.
 *
 * @module
 */

import { dirname } from "node:path";
import type { HostView } from "../../lib/sandbox/host_view.ts";

/** The files (path → content; `null` for a socket) and symlinks of a fake host. */
export interface FakeTree {
  files?: Record<string, string | null>;
  dirs?: string[];
  links?: Record<string, string>;
}

/**
 * A HostView over `tree` (Linux, HOME=/home/me, uid 1000 whose home in
 * /etc/passwd is /home/me, cwd /home/me/proj unless overridden).
 */
export function fakeHost(tree: FakeTree, overrides: Partial<HostView> = {}): HostView {
  const files = tree.files ?? {};
  const links = tree.links ?? {};
  const dirs = new Set<string>();
  for (const path of [...Object.keys(files), ...(tree.dirs ?? []), ...Object.keys(links)]) {
    for (let dir = dirname(path); dir !== "/"; dir = dirname(dir)) dirs.add(dir);
  }
  for (const dir of tree.dirs ?? []) dirs.add(dir);
  const resolve = (path: string): string => {
    for (const [link, target] of Object.entries(links)) {
      if (path === link) return resolve(target);
      if (path.startsWith(link + "/")) return resolve(target + path.slice(link.length));
    }
    return path;
  };
  const kind = (path: string) => {
    const real = resolve(path);
    if (dirs.has(real) || real === "/") return "dir" as const;
    if (real in files) return files[real] === null ? "other" as const : "file" as const;
    return undefined;
  };
  return {
    os: "linux",
    cwd: "/home/me/proj",
    env: { HOME: "/home/me", PATH: "/usr/bin" },
    user: { uid: 1000, home: "/home/me" },
    stat: kind,
    realPath: (path) => kind(path) ? resolve(path) : undefined,
    readHead: (path, max) => {
      const content = files[resolve(path)];
      return typeof content === "string" ? content.slice(0, max) : undefined;
    },
    list: (path) => {
      const real = resolve(path);
      const names = new Set<string>();
      for (const entry of [...dirs, ...Object.keys(files)]) {
        if (dirname(entry) === real) names.add(entry.slice(real.length + 1));
      }
      return [...names];
    },
    ...overrides,
  };
}
