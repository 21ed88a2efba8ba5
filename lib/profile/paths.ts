/**
 * `join` and `isAbsolute` as `node:path` has them (POSIX, or Windows on
 * Windows), for the modules that read profiles, which load no `node:`
 * module: a second implementation of what `node:path` does, kept for the
 * measured reason in docs/performance.md ("Second implementations"); and
 * the user's home and jn directories as the environment names them, and
 * where the user's sessions live. tests/profile/paths_test.ts checks both
 * flavours against `node:path`.
 *
 * Imports nothing, so the layers below lib/profile (the sandbox, which
 * hides the sessions folders from every server) may read it too
 * (scripts/import_graph.ts ranks it on its own).
 *
 * @module
 */

const WINDOWS = Deno.build.os === "windows";

/** The segments of `parts` joined and normalized (`.`, `..`, repeated separators). */
export function joinPath(...parts: string[]): string {
  return WINDOWS ? joinWith(parts, true) : joinWith(parts, false);
}

/** Whether `path` is absolute. */
export function isAbsolutePath(path: string): boolean {
  return WINDOWS ? /^([a-zA-Z]:)?[\\/]/.test(path) : path.startsWith("/");
}

/** `join` of one flavour (exported for the tests: `windows` mirrors `path.win32`). */
export function joinWith(parts: string[], windows: boolean): string {
  const joined = parts.filter((part) => part !== "").join(windows ? "\\" : "/");
  if (joined === "") return ".";
  return windows ? normalizeWindows(joined) : normalizePosix(joined);
}

/** A path's segments after its root, normalized (`.` when nothing is left and not absolute). */
function normalizeBody(rest: string, sep: string, absolute: boolean): string {
  const out: string[] = [];
  // Empty segments (repeated separators) are skipped below: POSIX needs no regular expression.
  for (const segment of sep === "/" ? rest.split("/") : rest.split(/[\\/]+/)) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") {
      if (out.length > 0 && out[out.length - 1] !== "..") out.pop();
      else if (!absolute) out.push("..");
    } else out.push(segment);
  }
  const body = out.join(sep);
  if (body === "") return absolute ? "" : ".";
  const trailing = sep === "/" ? rest.endsWith("/") : /[\\/]$/.test(rest);
  return trailing ? body + sep : body;
}

function normalizePosix(path: string): string {
  const absolute = path.startsWith("/");
  return (absolute ? "/" : "") + normalizeBody(path, "/", absolute);
}

function normalizeWindows(path: string): string {
  const unc = /^[\\/]{2}([^\\/]+)[\\/]+([^\\/]+)/.exec(path);
  if (unc) {
    return `\\\\${unc[1]}\\${unc[2]}\\` + normalizeBody(path.slice(unc[0].length), "\\", true);
  }
  const drive = /^[a-zA-Z]:/.exec(path)?.[0] ?? "";
  const rest = path.slice(drive.length);
  const absolute = /^[\\/]/.test(rest);
  return drive + (absolute ? "\\" : "") + normalizeBody(rest, "\\", absolute);
}

/** The user's home directory from the environment, if any. */
export function homeDir(env: Record<string, string>): string | undefined {
  const home = env.HOME || env.USERPROFILE;
  return home && isAbsolutePath(home) ? home : undefined;
}

/** The user's jn directory (`~/.local/jn`): user profiles, trust records, tokens. */
export function userJnDir(env: Record<string, string>): string | undefined {
  const home = homeDir(env);
  return home === undefined ? undefined : joinPath(home, ".local", "jn");
}

/**
 * The folders where a jn of this environment keeps its sessions, the one it
 * uses first: `$XDG_RUNTIME_DIR/jn` when the environment names a runtime
 * directory, then `~/.local/jn/sessions` (where a jn without one keeps
 * them). Neither is created. Empty without HOME nor runtime directory.
 * Where sessions of the same user may be whatever the environment:
 * {@linkcode everySessionPlace}.
 */
export function sessionDirCandidates(env: Record<string, string>): string[] {
  const dirs: string[] = [];
  const runtime = env.XDG_RUNTIME_DIR;
  if (runtime && isAbsolutePath(runtime)) dirs.push(runtimeSessions(runtime));
  const home = homeDir(env);
  if (home !== undefined) dirs.push(homeSessions(home));
  return dirs;
}

/** A sessions folder, and the directory that holds it (a runtime directory, or a home). */
export interface SessionPlace {
  /** The sessions folder. */
  dir: string;
  /** The runtime directory or home it sits in: while that is absent, no session is there. */
  root: string;
}

/**
 * Every place this user's sessions may be, whatever environment this jn
 * was started with (cron, `env -i`, an MCP host that scrubs it, another
 * HOME): those of {@linkcode sessionDirCandidates}, then, on Linux,
 * `/run/user/UID/jn` (the runtime directory the system gives the user,
 * whether or not `$XDG_RUNTIME_DIR` names it), then `~/.local/jn/sessions`
 * of the home `/etc/passwd` gives (`user.home`). Each once; what is not
 * known (`user.uid`, `user.home`) adds nothing.
 */
export function everySessionPlace(
  env: Record<string, string>,
  user: { uid?: number; home?: string },
  os: string,
): SessionPlace[] {
  const places: SessionPlace[] = [];
  const add = (root: string, dir: string) => {
    if (!places.some((place) => place.dir === dir)) places.push({ dir, root });
  };
  const runtime = env.XDG_RUNTIME_DIR;
  if (runtime && isAbsolutePath(runtime)) add(runtime, runtimeSessions(runtime));
  const home = homeDir(env);
  if (home !== undefined) add(home, homeSessions(home));
  if (os === "linux" && user.uid !== undefined) {
    const own = `/run/user/${user.uid}`;
    add(own, runtimeSessions(own));
  }
  if (user.home && isAbsolutePath(user.home)) add(user.home, homeSessions(user.home));
  return places;
}

function runtimeSessions(runtime: string): string {
  return joinPath(runtime, "jn");
}

function homeSessions(home: string): string {
  return joinPath(home, ".local", "jn", "sessions");
}
