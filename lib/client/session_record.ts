/**
 * What the sessions directory says of a session: its record (`KEY.json`,
 * written by the session's own process when it is ready to serve, kept up
 * to date as it is used, removed when it ends) and, for a session that
 * ended by itself — its server died, its profile changed, its process was
 * killed — the note of why (`KEY.ended`), which the calls of its source get
 * (exit 4) until the session is started again or stopped, or until its
 * idle limit would have ended it anyway.
 *
 * Guarantees: what is read is checked field by field (a record that does
 * not parse is no session); the socket and log of a record read are its
 * key's own files in the directory, whatever the record says; the shape's
 * digests and the nonce are the only values of consequence in the record,
 * and neither reveals a secret.
 *
 * @module
 */

import { ConnectionError } from "../errors.ts";
import { readPrivateJson, type SessionFiles, writePrivateJson } from "./session_paths.ts";

/** A running session, as its record says. */
export interface SessionRecord {
  /** The jn version of the session's process (a call of another version does not use it). */
  version: string;
  /** The source as `session start` was given it. */
  source: string;
  /** The server's name for messages (`@profile` or the launch's label). */
  name: string;
  /** The session's process. */
  pid: number;
  /** Its socket. */
  socket: string;
  /** Where its log is. */
  log: string;
  /** The directory it was started from. */
  cwd: string;
  /** When it started (ISO 8601). */
  started: string;
  /** When it was last used (ISO 8601). */
  lastUsed: string;
  /** Calls served (tool calls, reads, prompts, completions). */
  calls: number;
  /** The idle limit in ms (0: none). */
  idleMs: number;
  /** Whether the server runs sandboxed. */
  sandboxed: boolean;
  /** The protocol era of the server's session (a call speaks the same). */
  era?: "legacy" | "modern";
  /** The protocol revision of the server's session. */
  protocolVersion?: string;
  /** The salt of the shape's digests. */
  salt: string;
  /** The launch-shaping options, salted (session_shape.ts). */
  shape: Record<string, string>;
  /** Marks the session's own errors on its socket (session_errors.ts). */
  nonce: string;
}

/** Why a session ended by itself. */
export interface SessionEnd {
  /** The source the session was started with. */
  source: string;
  /** The server's name for messages. */
  name: string;
  /** One line: what happened. */
  reason: string;
  /** When (ISO 8601). */
  at: string;
  /** Until when calls are told (ISO 8601; absent: until started again or stopped). */
  until?: string;
}

/** The record of a session, if there is one that parses. */
export async function readRecord(files: SessionFiles): Promise<SessionRecord | undefined> {
  const value = await readPrivateJson(files.info);
  if (value === undefined) return undefined;
  const strings = ["version", "source", "name", "socket", "log", "cwd", "started", "lastUsed"];
  const numbers = ["pid", "calls", "idleMs"];
  if (strings.some((key) => typeof value[key] !== "string")) return undefined;
  if (numbers.some((key) => typeof value[key] !== "number")) return undefined;
  if (typeof value.salt !== "string" || typeof value.nonce !== "string") return undefined;
  if (value.shape === null || typeof value.shape !== "object") return undefined;
  // The socket is the key's own in this directory, whatever the record says.
  return { ...value, socket: files.socket, log: files.log } as unknown as SessionRecord;
}

/** Writes a session's record (0600, whole). */
export async function writeRecord(files: SessionFiles, record: SessionRecord): Promise<void> {
  await writePrivateJson(files.info, record);
}

/** The note of a session that ended by itself, while it is still to be told. */
export async function readEnd(files: SessionFiles): Promise<SessionEnd | undefined> {
  const value = await readPrivateJson(files.ended);
  if (value === undefined) return undefined;
  if (["source", "name", "reason", "at"].some((key) => typeof value[key] !== "string")) {
    return undefined;
  }
  const end = value as unknown as SessionEnd;
  if (end.until !== undefined && Date.parse(end.until) < Date.now()) {
    await Deno.remove(files.ended).catch(() => {});
    return undefined;
  }
  return end;
}

/** Records why a session ended by itself (its calls are told, exit 4). */
export async function writeEnd(
  files: SessionFiles,
  record: Pick<SessionRecord, "source" | "name" | "idleMs">,
  reason: string,
): Promise<void> {
  const at = Date.now();
  const end: SessionEnd = {
    source: record.source,
    name: record.name,
    reason,
    at: new Date(at).toISOString(),
    ...(record.idleMs > 0 ? { until: new Date(at + record.idleMs).toISOString() } : {}),
  };
  await writePrivateJson(files.ended, end);
}

/** The error a call of an ended session's source gets (exit 4). */
export function endedError(end: SessionEnd): ConnectionError {
  return new ConnectionError(
    `The session of ${end.name} ended at ${end.at}: ${end.reason}; its server's state is gone`,
    {
      hint: `start it again (jn session start ${end.source}), forget it (jn session stop ` +
        `${end.source}), or call without it (--no-session)`,
    },
  );
}

/**
 * Whether a session's process serves: its socket takes a connection (closed
 * at once: a session does not count it as a use). A record whose socket
 * does not is a session whose process is gone.
 */
export async function answering(record: Pick<SessionRecord, "socket">): Promise<boolean> {
  try {
    const conn = await Deno.connect({ transport: "unix", path: record.socket });
    conn.close();
    return true;
  } catch {
    return false;
  }
}

/** Removes what a session left in the directory (its socket, record and start note). */
export async function removeSessionFiles(files: SessionFiles): Promise<void> {
  await Deno.remove(files.socket).catch(() => {});
  await Deno.remove(files.info).catch(() => {});
}
