/**
 * Whether a call goes through a session (open.ts asks, after the source is
 * resolved — and so, for a project profile, trusted by the calling process
 * itself): a live session of the same source whose launch-shaping options
 * are the call's own (session_shape.ts), started by the same jn version.
 *
 * Guarantees: `noSession` bypasses every session; a session started with
 * other options is not used, and `events.onNotice` says so once, with what
 * differs; a sessions directory that is not private is never used (said
 * once too); a source whose session ended by itself (its server died, its
 * process was killed) fails with exit 4 and what to do, rather than
 * silently starting a server without the state the user relied on; a
 * session whose process is gone is found out (its socket refuses) and its
 * files cleared, so it blocks nothing.
 *
 * @module
 */

import { VERSION } from "../version.ts";
import type { OpenOptions } from "./options.ts";
import type { SessionSettings } from "./remote.ts";
import type { Target } from "./resolve.ts";
import { localConnector } from "./session_local.ts";
import { existingPrivateDir, type SessionFiles, sessionFiles } from "./session_paths.ts";
import {
  endedError,
  readEnd,
  readRecord,
  removeSessionFiles,
  type SessionRecord,
  writeEnd,
} from "./session_record.ts";
import {
  differencesText,
  launchShape,
  sessionKey,
  shapeDifferences,
  sourceIdentity,
} from "./session_shape.ts";

/** A live session a call may go through. */
export interface FoundSession {
  record: SessionRecord;
  files: SessionFiles;
}

/** The session this call goes through, if any (see the module's guarantees). */
export async function findSession(
  target: Target,
  options: OpenOptions,
  settings: Pick<SessionSettings, "launch" | "options">,
): Promise<FoundSession | undefined> {
  if (options.noSession) return undefined;
  let dir: string | undefined;
  try {
    dir = await existingPrivateDir(options.env);
  } catch (error) {
    await options.events?.onNotice?.(`not using sessions: ${(error as Error).message}`);
    return undefined;
  }
  if (dir === undefined) return undefined;
  const files = sessionFiles(dir, await sessionKey(sourceIdentity(target)));
  const record = await readRecord(files);
  if (record === undefined) {
    const end = await readEnd(files);
    if (end !== undefined) throw endedError(end);
    return undefined;
  }
  const differs = record.version !== VERSION
    ? [`its jn version (${record.version})`]
    : shapeDifferences(record.shape, await launchShape(target, options, settings, record.salt));
  if (differs.length > 0) {
    await options.events?.onNotice?.(
      `a session of ${target.name} runs with other launch options; not using it: ${
        differencesText(differs)
      }`,
    );
    return undefined;
  }
  return { record, files };
}

/**
 * Records that a session's process is gone (its socket refused a call) and
 * clears its files; returns the error the call gets (exit 4).
 */
export async function sessionGone(found: FoundSession): Promise<Error> {
  // A session that is ending by itself has said why already.
  const said = await readEnd(found.files);
  if (said !== undefined) return endedError(said);
  const reason = "its process is gone (killed or crashed)";
  await removeSessionFiles(found.files);
  await writeEnd(found.files, found.record, reason);
  return endedError({
    source: found.record.source,
    name: found.record.name,
    reason,
    at: new Date().toISOString(),
  });
}

/**
 * Whether a session of the target's source has a record (no launch options
 * compared): for the checks a command makes before it connects (`--detach`
 * of a stdio server); connecting says for sure.
 */
export async function sessionRecorded(
  target: Target,
  options: Pick<OpenOptions, "env" | "noSession">,
): Promise<boolean> {
  if (options.noSession) return false;
  const dir = await existingPrivateDir(options.env).catch(() => undefined);
  if (dir === undefined) return false;
  const files = sessionFiles(dir, await sessionKey(sourceIdentity(target)));
  return (await readRecord(files)) !== undefined;
}

/**
 * The HTTP session a `?task=ID&session=SID` source joins (a task resumed
 * in the HTTP session it lives in): such a call never goes through a jn
 * session.
 */
export function resumedSession(target: Target): string | undefined {
  const operation = target.operation;
  return operation.kind === "task" && target.launch.transport !== "stdio"
    ? operation.session
    : undefined;
}

/**
 * Why the session this process serves would not serve a call of `target`
 * with `options` (command forwarding asks before it runs a command:
 * lib/cli/forward_serve.ts), or undefined when it would: the lookup a call
 * makes, finding this very process's session.
 */
export async function ownSessionRefuses(
  target: Target,
  options: OpenOptions,
): Promise<string | undefined> {
  if (resumedSession(target) !== undefined) return "a task resumed in its own HTTP session";
  const { sessionSettings } = await import("./remote.ts");
  let why: string | undefined;
  const found = await findSession(
    target,
    { ...options, events: { onNotice: (message) => void (why = message) } },
    await sessionSettings(target, options),
  );
  if (found === undefined) return why ?? "no session of this source runs";
  if (found.record.pid !== Deno.pid || !localConnector(found.record.socket)) {
    return "another session serves this source";
  }
  return undefined;
}
