/**
 * `stopSession`: a session ended on purpose — its connections, its server's
 * whole process tree (the session's process ends it on SIGTERM, as on any
 * stop), its socket and record — or, for a session that already ended by
 * itself, the note its calls get forgotten.
 *
 * Guarantees: a source is found without its profile being trusted (a
 * session of a profile whose trust was withdrawn can still be stopped); a
 * process is signalled only while the session's socket answers (so never a
 * process that took the pid of a crashed one); `stopSession` returns once
 * the session has ended its server and removed its socket, its last act
 * (SIGKILL after {@linkcode STOP_GRACE_MS}); nothing of the session is left
 * in the directory; a source with no session is a usage error (exit 2)
 * that says how to list the running ones.
 *
 * @module
 */

import process from "node:process";
import { UsageError } from "../errors.ts";
import { buildLaunch } from "../launch/build.ts";
import { parseSource } from "../uri/parse.ts";
import type { Target } from "./resolve.ts";
import {
  existingPrivateDir,
  pathExists,
  type SessionFiles,
  sessionFiles,
  sessionKeys,
} from "./session_paths.ts";
import {
  answering,
  readEnd,
  readRecord,
  removeSessionFiles,
  type SessionRecord,
} from "./session_record.ts";
import { sessionKey, sourceIdentity } from "./session_shape.ts";

/** How long a session's process gets to end by itself after SIGTERM (ms). */
export const STOP_GRACE_MS = 10_000;

/** Where the sessions are: the caller's directory and environment. */
export interface SessionPlace {
  /** The caller's directory (a project profile, a relative script path). */
  cwd: string;
  /** The caller's environment (HOME, XDG_RUNTIME_DIR: where the sessions are). */
  env: Record<string, string>;
}

/** What `stopSession` ended or forgot. */
export interface SessionStopped {
  /** The source the session was started with. */
  source: string;
  /** The server's name for messages. */
  name: string;
  /** The process ended (absent: the session had ended by itself, its note is forgotten). */
  pid?: number;
}

/** Stops the session of `source` (see the module's guarantees). */
export async function stopSession(source: string, place: SessionPlace): Promise<SessionStopped> {
  const dir = await existingPrivateDir(place.env);
  const files = dir && sessionFiles(dir, await sessionKey(await identityOf(source, place)));
  const stopped = files && await stopFiles(files);
  if (stopped) return stopped;
  throw new UsageError(`No session of ${source} runs`, {
    hint: "jn session list shows the sessions that run",
  });
}

/** Stops every session (and forgets every ended one). */
export async function stopAllSessions(place: SessionPlace): Promise<SessionStopped[]> {
  const dir = await existingPrivateDir(place.env);
  if (dir === undefined) return [];
  const stopped: SessionStopped[] = [];
  for (const key of await sessionKeys(dir)) {
    const result = await stopFiles(sessionFiles(dir, key));
    if (result) stopped.push(result);
  }
  return stopped;
}

async function stopFiles(files: SessionFiles): Promise<SessionStopped | undefined> {
  const record = await readRecord(files);
  const end = await readEnd(files);
  await Deno.remove(files.ended).catch(() => {});
  if (record === undefined) return end && { source: end.source, name: end.name };
  const live = await answering(record);
  if (live) await endProcess(record);
  await removeSessionFiles(files);
  await Deno.remove(files.log).catch(() => {});
  await Deno.remove(files.lock).catch(() => {});
  return live
    ? { source: record.source, name: record.name, pid: record.pid }
    : { source: record.source, name: record.name };
}

/**
 * SIGTERM, then SIGKILL after the grace: returns once the session removed
 * its socket (the last thing it does, after its server's tree ended).
 */
async function endProcess(record: SessionRecord): Promise<void> {
  signal(record.pid, "SIGTERM");
  const deadline = Date.now() + STOP_GRACE_MS;
  for (let wait = 10; await pathExists(record.socket); wait = Math.min(wait * 2, 100)) {
    if (Date.now() > deadline) {
      signal(record.pid, "SIGKILL");
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

/** The identity of a source, found without trusting its profile. */
async function identityOf(source: string, place: SessionPlace): Promise<string> {
  const parsed = parseSource(source);
  if (parsed.kind === "naked") {
    return sourceIdentity({ launch: buildLaunch(parsed, { cwd: place.cwd }) });
  }
  const { loadRawProfile, resolveProfile } = await import("../profile/resolve.ts");
  const raw = await loadRawProfile(parsed.server, place);
  const profile = resolveProfile(raw, place.env, { lenient: true });
  return sourceIdentity({ profile } as Pick<Target, "profile" | "launch">);
}

function signal(pid: number, name: "SIGTERM" | "SIGKILL"): void {
  try {
    process.kill(pid, name);
  } catch { /* gone */ }
}
