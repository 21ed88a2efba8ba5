/**
 * Where sessions live: one private directory per user —
 * `$XDG_RUNTIME_DIR/jn` when the system gives the user a runtime directory,
 * else `~/.local/jn/sessions` — holding, for each session, its socket
 * (`KEY.sock`), what it is (`KEY.json`), its start lock (`KEY.lock`), its
 * log (`KEY.log`) and, once it ended by itself, why (`KEY.ended`). KEY is a
 * digest of the source's identity (session_key.ts): no name from the command
 * line is ever joined into a path.
 *
 * Guarantees: jn creates the directory mode 0700 and its files 0600, and
 * uses a directory only when it is a real directory (not a symlink), owned
 * by the user running jn, that no one else may enter or list (no group or
 * other permission bits), under folders no other user may change; anything
 * else is refused with what to do. The directory is used by its real path
 * (symlinks above it resolved once, when checked). Other users cannot reach
 * a socket in it, whatever the socket's own mode (it is 0600 too). A file
 * jn creates there is never opened through a symlink, nor a file of
 * another's or with another name ({@linkcode openPrivateFile}). Windows has
 * no such sessions: {@linkcode requireSessions} says so. Where the
 * directory is and what makes it private: session_dir.ts.
 *
 * @module
 */

import { ConfigError, UsageError } from "../errors.ts";
import { joinPath } from "../profile/paths.ts";
import { ownUid } from "../profile/own_user.ts";
import { checkPrivateDir, sessionDirOf } from "./session_dir.ts";

/** The longest socket path the systems take (`sun_path`: 108 bytes on Linux, 104 on macOS). */
const MAX_SOCKET_PATH = 100;

/** The files of one session in the directory. */
export interface SessionFiles {
  /** The directory. */
  dir: string;
  /** The key (hex digest of the source's identity). */
  key: string;
  socket: string;
  info: string;
  lock: string;
  log: string;
  ended: string;
}

/** A usage error on a system without Unix sockets for sessions (Windows). */
export function requireSessions(): void {
  if (Deno.build.os !== "windows") return;
  throw new UsageError("Sessions are not supported on Windows", {
    hint: "call the server directly (each call starts it), or run jn under WSL",
  });
}

/** The sessions directory for this environment (not created). */
export function sessionDir(env: Record<string, string>): string {
  const dir = sessionDirOf(env);
  if (dir === undefined) {
    throw new ConfigError("Cannot find a directory for sessions: HOME is not set", {
      hint: "set HOME (or XDG_RUNTIME_DIR) to a directory of yours",
    });
  }
  return dir;
}

/** The files of the session `key` in `dir`. */
export function sessionFiles(dir: string, key: string): SessionFiles {
  const at = (suffix: string) => joinPath(dir, `${key}.${suffix}`);
  return {
    dir,
    key,
    socket: at("sock"),
    info: at("json"),
    lock: at("lock"),
    log: at("log"),
    ended: at("ended"),
  };
}

/** The keys of every session in `dir` that has a record or an end note, sorted. */
export async function sessionKeys(dir: string): Promise<string[]> {
  const keys = new Set<string>();
  for await (const entry of Deno.readDir(dir)) {
    const match = /^([0-9a-f]{32})\.(json|ended)$/.exec(entry.name);
    if (match) keys.add(match[1]);
  }
  return [...keys].sort();
}

/**
 * Creates the sessions directory if need be (mode 0700) and checks that it
 * is private: its real path.
 */
export async function ensurePrivateDir(env: Record<string, string>): Promise<string> {
  const dir = sessionDir(env);
  try {
    await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
  }
  const checked = await checkPrivateDir(dir);
  if ("problem" in checked) throw notPrivate(dir, checked);
  if (sessionFiles(checked.path, "0".repeat(16)).socket.length > MAX_SOCKET_PATH) {
    throw new ConfigError(`The sessions directory ${dir} is too deep for a socket's path`, {
      path: dir,
      hint: "set XDG_RUNTIME_DIR to a short directory of yours (mode 0700)",
    });
  }
  return checked.path;
}

/**
 * The sessions directory (its real path) when it exists and is private;
 * undefined when it does not exist or cannot be reached (no HOME, a
 * narrower permission set); a ConfigError when it exists but is not private.
 */
export async function existingPrivateDir(
  env: Record<string, string>,
): Promise<string | undefined> {
  if (Deno.build.os === "windows") return undefined;
  // No HOME nor runtime directory, or a permission set that does not reach it: no sessions.
  const dir = sessionDirOf(env);
  if (dir === undefined) return undefined;
  let checked: Awaited<ReturnType<typeof checkPrivateDir>>;
  try {
    checked = await checkPrivateDir(dir);
  } catch {
    return undefined;
  }
  // Who runs jn cannot be told (a narrow permission set): a call cannot use sessions, silently.
  if ("problem" in checked && checked.unknownUser) return undefined;
  if ("problem" in checked) throw notPrivate(dir, checked);
  return checked.path;
}

function notPrivate(dir: string, why: { problem: string; unknownUser?: true }): ConfigError {
  return new ConfigError(`The sessions directory ${dir} is not private: ${why.problem}`, {
    path: dir,
    hint: why.unknownUser
      ? "let jn read /proc/self or write its temporary directory (docs/session.md)"
      : "remove it (jn creates it again, mode 0700), or point XDG_RUNTIME_DIR elsewhere",
  });
}

/**
 * Opens `path` (in the private directory) for writing, creating it 0600:
 * `fresh`, anything there is replaced by a new empty file; else a regular
 * file of this user's with no other name is kept, and anything else (a
 * symlink, a socket, another's file, a hard link) replaced. Never opens
 * through a symlink.
 */
export async function openPrivateFile(
  path: string,
  { fresh = false }: { fresh?: boolean } = {},
): Promise<Deno.FsFile> {
  if (fresh) await Deno.remove(path).catch(() => {});
  try {
    return await Deno.open(path, { write: true, createNew: true, mode: 0o600 });
  } catch (error) {
    if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
  }
  const info = await Deno.lstat(path);
  if (info.isFile && info.uid === (await ownUid()) && info.nlink === 1) {
    return await Deno.open(path, { write: true });
  }
  await Deno.remove(path);
  return await Deno.open(path, { write: true, createNew: true, mode: 0o600 });
}

/** Whether something is at `path` (not followed: a socket, a file, a link). */
export async function pathExists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}

/** Writes `data` as JSON to `path` (0600), whole or not at all (a temporary file renamed). */
export async function writePrivateJson(path: string, data: unknown): Promise<void> {
  const temp = `${path}.${crypto.randomUUID().slice(0, 8)}.tmp`;
  try {
    await Deno.writeTextFile(temp, `${JSON.stringify(data)}\n`, { mode: 0o600, createNew: true });
    await Deno.rename(temp, path);
  } catch (error) {
    await Deno.remove(temp).catch(() => {});
    throw error;
  }
}

/**
 * The JSON object in `path`, or undefined when it is absent or unreadable
 * (the directory is private: only jn of this user writes there).
 */
export async function readPrivateJson(path: string): Promise<Record<string, unknown> | undefined> {
  try {
    const value = JSON.parse(await Deno.readTextFile(path));
    return value !== null && typeof value === "object" && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
