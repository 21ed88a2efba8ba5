/**
 * Why a sandboxed server failed to start, read from its stderr: the path it
 * could not find that exists on the host but is hidden by the sandbox, and
 * the exact `--sandbox-read` that would show it; or a launcher that needed
 * the network, or a Deno cache it could not write.
 *
 * Recognised: Node (`Cannot find module '…'`, `Cannot find package '…'
 * imported from …`, with the `Require stack`), `ENOENT … '…'`, Python
 * (`No such file or directory: '…'`, `can't open file '…'`), Deno
 * (`Module not found "file://…"`), bubblewrap (`execvp …`), and a path after
 * "cannot access", "does not exist" or "not found".
 *
 * The server writes that stderr: it is hostile input, and the hint must not
 * become its voice. A path is suggested only when it is package code — in a
 * `node_modules`, `site-packages` or `dist-packages` directory, or in a
 * package (a directory with `package.json`, `deno.json(c)`,
 * `pyproject.toml`, `setup.py`, `setup.cfg`) — and never when it, or what it
 * leads to through a symlink, is broad or a credential store (`$HOME` and its
 * parents, `~/.ssh`, `~/.aws`, `~/.config`, …: host_view.ts `isSensitive`).
 * The CLI says that the suggestion comes from the server's own output.
 *
 * Pure: the host is seen through `stat` and `realPath`; what the sandbox
 * shows through `visible`.
 *
 * @module
 */

import { dirname, isAbsolute, join, resolve } from "node:path";
import type { PathKind } from "./host.ts";
import { isBroad, isSensitive } from "./host_view.ts";

/** A path the server needed, hidden by the sandbox. */
export interface HiddenPath {
  /** The host path that is hidden. */
  path: string;
  /** The server's stderr line that names it. */
  line: string;
  /** What to pass to `--sandbox-read` to show it. */
  grant: string;
}

/** What {@linkcode findHiddenPath} may ask. */
export interface HiddenPathView {
  /** Whether the sandbox shows a host path. */
  visible: (path: string) => boolean;
  /** What is at a host path. */
  stat: (path: string) => PathKind | undefined;
  /** A host path with symlinks resolved (`undefined`: not there); without it, paths are taken as they are. */
  realPath?: (path: string) => string | undefined;
  home?: string;
}

const PACKAGE_DIRS = ["node_modules", "site-packages", "dist-packages"];
const MANIFESTS = [
  "package.json",
  "deno.json",
  "deno.jsonc",
  "pyproject.toml",
  "setup.py",
  "setup.cfg",
];

const IMPORTED = /Cannot find (?:module|package) '([^']+)' imported from (\S+)/;
const REQUIRED = /Cannot find module '([^']+)'/;
const QUOTED_PATH = [
  /\bENO(?:ENT|TDIR)\b[^']*'(\/[^']+)'/,
  /No such file or directory: '(\/[^']+)'/,
  /can't open file '(\/[^']+)'/,
  /Module not found "file:\/\/(\/[^"]+)"/,
  /bwrap: execvp (\/\S+): No such file/,
  /(?:[Cc]annot access|does not exist|[Nn]ot found)\D*?(\/[^\s'",:]+)/,
];

/** The first path the server's stderr names that exists on the host but is hidden. */
export function findHiddenPath(stderr: string, view: HiddenPathView): HiddenPath | undefined {
  const lines = stderr.split("\n");
  for (const [index, raw] of lines.entries()) {
    const line = raw.trim();
    for (const found of candidates(line, lines.slice(index + 1, index + 4))) {
      const path = found.path.replace(/^file:\/\//, "");
      if (!isAbsolute(path) || !view.stat(path) || view.visible(path)) continue;
      const grant = found.grant ?? grantFor(path, view);
      if (!suggestible(path, grant, view)) continue;
      return { path, line: line.slice(0, 300), grant };
    }
  }
  return undefined;
}

/** A hint for a launcher that needed something the sandbox withholds, if its stderr says so. */
export function launcherHint(stderr: string): string | undefined {
  if (/ENOTCACHED|network connectivity is disabled|EAI_AGAIN|ENETUNREACH/i.test(stderr)) {
    return "the launcher needed the network to fetch the package: allow it with --sandbox-net " +
      "(jn keeps what it fetches in its own cache for this server)";
  }
  if (/Failed caching|os error 30\)/.test(stderr)) {
    return "the server's Deno dependencies are not cached and the sandbox's Deno cache is " +
      "read-only: cache them once outside the sandbox with `deno cache SCRIPT`";
  }
  return undefined;
}

/** Paths one stderr line names (and, for Node's bare imports, where they are on the host). */
function* candidates(
  line: string,
  following: string[],
): Generator<{ path: string; grant?: string }> {
  let match = IMPORTED.exec(line);
  let spec: string | undefined;
  let importer: string | undefined;
  if (match) {
    [, spec, importer] = match;
  } else if ((match = REQUIRED.exec(line))) {
    spec = match[1];
    const stack = following.findIndex((next) => /Require stack:/.test(next));
    importer = stack === -1 ? undefined : /^\s*-\s*(\S+)/.exec(following[stack + 1] ?? "")?.[1];
  }
  if (spec !== undefined) {
    spec = spec.replace(/^file:\/\//, "");
    if (isAbsolute(spec)) yield { path: spec };
    else if (importer && /^\.\.?\//.test(spec)) {
      yield { path: resolve(dirname(importer.replace(/^file:\/\//, "")), spec) };
    } else if (importer) {
      yield* packageOnHost(spec, importer.replace(/^file:\/\//, ""));
    }
  }
  for (const pattern of QUOTED_PATH) {
    const quoted = pattern.exec(line);
    if (quoted) yield { path: quoted[1] };
  }
}

/** Where Node would find a bare import on the host: `<ancestor>/node_modules/<package>`. */
function* packageOnHost(
  spec: string,
  importer: string,
): Generator<{ path: string; grant: string }> {
  const parts = spec.split("/");
  const name = spec.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
  for (let dir = dirname(importer);; dir = dirname(dir)) {
    const modules = join(dir, "node_modules");
    yield { path: join(modules, name), grant: modules };
    if (dir === dirname(dir)) return;
  }
}

function grantFor(path: string, view: HiddenPathView): string {
  if (view.stat(path) === "dir") return path;
  const dir = dirname(path);
  return isBroad(dir, view.home) ? path : dir;
}

/** Whether jn may suggest showing `grant` for `path` (see the module doc). */
function suggestible(path: string, grant: string, view: HiddenPathView): boolean {
  for (const named of [path, grant]) {
    const real = view.realPath?.(named) ?? named;
    if (isSensitive(named, view.home) || isSensitive(real, view.home)) return false;
  }
  const parts = grant.split("/");
  if (PACKAGE_DIRS.some((dir) => parts.includes(dir))) return true;
  // In a package: a manifest in the grant or one of its ancestors below the first broad one.
  for (let dir = view.stat(grant) === "dir" ? grant : dirname(grant);; dir = dirname(dir)) {
    if (isSensitive(dir, view.home)) return false;
    if (MANIFESTS.some((name) => view.stat(join(dir, name)) === "file")) return true;
  }
}
