/**
 * Host paths judged by where they really lead. bubblewrap follows a symlink
 * in the source of a bind, so a path that looks harmless (`repo/node_modules`,
 * a profile's `cwd: "data"`) can bind `/` or the home directory when it is a
 * symlink: every check on a path jn gives a server is made on its real path.
 *
 * Guarantees of {@linkcode pathJudge}:
 * - `broad` and `sensitive` (host_view.ts) hold for a path when they hold
 *   against the home directory by its name or by its real path (a home that
 *   is itself a symlink, `/home/me -> /data/me`, is still the home);
 * - `viaLink` is true when a path reaches its real path through a symlink of
 *   its own (macOS's system links `/tmp`, `/var`, `/etc` into `/private` do
 *   not count);
 * - every look at the host is a non-throwing `peek` (a path jn may not look
 *   at is "not there").
 *
 * @module
 */

import { isAbsolute } from "node:path";
import { type HostView, isBroad, isSensitive, peekReal, within } from "./host_view.ts";

/** Judgements on host paths for one plan (see the module doc). */
export interface PathJudge {
  /** The path with symlinks resolved; `undefined` when nothing is there. */
  real(path: string): string | undefined;
  /** Whether `path` reaches `real` (its real path) through a symlink. */
  viaLink(path: string, real: string): boolean;
  /** {@linkcode isBroad} against the home directory by either of its names. */
  broad(path: string): boolean;
  /** {@linkcode isSensitive} against the home directory by either of its names. */
  sensitive(path: string): boolean;
  /** Whether `path` is `/`, the home directory or one of its parents. */
  homeOrAbove(path: string): boolean;
}

/** The judge of the host's paths (HOME from `host.env`). */
export function pathJudge(host: HostView): PathJudge {
  const home = host.env.HOME && isAbsolute(host.env.HOME) ? host.env.HOME : undefined;
  const realHome = home && peekReal(host, home);
  const homes = [...new Set([home, realHome].filter((dir): dir is string => Boolean(dir)))];
  const darwin = host.os === "darwin";
  const canonical = (path: string) =>
    darwin ? path.replace(/^\/(tmp|var|etc)(?=\/|$)/, "/private/$1") : path;
  const anyHome = (test: (path: string, home?: string) => boolean) => (path: string) =>
    homes.length === 0 ? test(path) : homes.some((dir) => test(path, dir));
  return {
    real: (path) => peekReal(host, path),
    viaLink: (path, real) => canonical(path) !== real,
    broad: anyHome(isBroad),
    sensitive: anyHome(isSensitive),
    homeOrAbove: (path) => path === "/" || homes.some((dir) => within(dir, path)),
  };
}
