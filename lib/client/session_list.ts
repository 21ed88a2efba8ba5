/**
 * `listSessions`: the sessions of this user, running or ended by
 * themselves, one entry each, for `jn session list`.
 *
 * Guarantees: reading the list changes nothing a session serves (its
 * socket is only knocked on, which does not count as a use: its idle time
 * runs on); a record whose process is gone is found out here too — its session
 * is listed as ended and its socket cleared, as a call would; entries come
 * in the order the sessions started.
 *
 * @module
 */

import { existingPrivateDir, sessionFiles, sessionKeys } from "./session_paths.ts";
import { answering, readEnd, readRecord, removeSessionFiles, writeEnd } from "./session_record.ts";
import type { SessionPlace } from "./session_stop.ts";

/** One session as `jn session list` shows it. */
export interface SessionEntry {
  /** The source it was started with. */
  source: string;
  /** `running`, or `ended` (by itself: its server died, its process was killed…). */
  state: "running" | "ended";
  /** Its process (running sessions). */
  pid?: number;
  /** When it started (ISO 8601; running sessions). */
  started?: string;
  /** When it was last used (ISO 8601; running sessions). */
  last_used?: string;
  /** Calls served (tool calls, reads, prompts, completions). */
  calls?: number;
  /** When it ends unless used (ISO 8601); null: only when stopped. */
  idle_deadline?: string | null;
  /** Whether its server runs sandboxed. */
  sandboxed?: boolean;
  /** Why it ended (ended sessions). */
  reason?: string;
  /** When it ended (ISO 8601; ended sessions). */
  ended?: string;
}

/** Every session of this user (see the module's guarantees). */
export async function listSessions(place: SessionPlace): Promise<SessionEntry[]> {
  const dir = await existingPrivateDir(place.env);
  if (dir === undefined) return [];
  const entries: SessionEntry[] = [];
  for (const key of await sessionKeys(dir)) {
    const files = sessionFiles(dir, key);
    const record = await readRecord(files);
    if (record !== undefined && await answering(record)) {
      const last = Date.parse(record.lastUsed);
      entries.push({
        source: record.source,
        state: "running",
        pid: record.pid,
        started: record.started,
        last_used: record.lastUsed,
        calls: record.calls,
        idle_deadline: record.idleMs > 0 ? new Date(last + record.idleMs).toISOString() : null,
        sandboxed: record.sandboxed,
      });
      continue;
    }
    if (record !== undefined) {
      await removeSessionFiles(files);
      // A session ending by itself has said why already.
      if (await readEnd(files) === undefined) {
        await writeEnd(files, record, "its process is gone (killed or crashed)");
      }
    }
    const end = await readEnd(files);
    if (end !== undefined) {
      entries.push({ source: end.source, state: "ended", reason: end.reason, ended: end.at });
    }
  }
  const when = (entry: SessionEntry) => entry.started ?? entry.ended ?? "";
  return entries.sort((a, b) => when(a) < when(b) ? -1 : when(a) > when(b) ? 1 : 0);
}
