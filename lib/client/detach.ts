/**
 * `--detach` and its resumption: a task started on a remote server is left
 * running, and one record says how to get its result later — the task as
 * the server described it (its documented fields only), the tool, the HTTP session it lives in (servers
 * such as server-everything keep tasks per session, so a detached run leaves
 * its Streamable HTTP session open) and the source that resumes it
 * (`SOURCE?tool=NAME&task=ID[&session=SID]`). A stdio server ends with jn,
 * taking its tasks with it: detaching from one is a usage error, and so is
 * resuming (`?task=ID`) on one — unless a jn session holds it
 * (docs/session.md): its tasks then live as long as the session, and
 * `cat "SOURCE?task=ID"` collects through it. A resumed task whose HTTP
 * session the server no longer knows is said to be gone with its session.
 *
 * @module
 */

import { ConnectionError, UsageError } from "../errors.ts";
import type { TaskInfo } from "../types.ts";
import type { Target } from "./resolve.ts";

/**
 * A usage error unless the target is a remote server or a session holds it
 * (`viaSession`): a detached task lives on in the server, and a stdio
 * server started for one call ends with it.
 */
export function requireDetachable(target: Target, viaSession = false): void {
  if (target.launch.transport !== "stdio" || viaSession) return;
  throw new UsageError(
    `--detach needs a remote server or a session: "${target.name}" runs over stdio and ends when jn exits, taking its tasks with it`,
    {
      hint:
        `use --task to wait for the task instead, keep the server in a session (jn session start ${
          serverSource(target)
        }), or reach it over HTTP`,
    },
  );
}

/** The server part of the target's source (what `jn session start` takes). */
export function serverSource(target: Target): string {
  const source = target.source;
  return source.kind === "profile" ? `@${source.server}` : source.raw.split("?")[0];
}

/**
 * A usage error for `?task=ID` on a stdio server no session holds
 * (`viaSession`): a task of an earlier run ended with it (the mirror of
 * {@linkcode requireDetachable}).
 */
export function requireResumable(target: Target, viaSession = false): void {
  if (target.operation.kind !== "task" || target.launch.transport !== "stdio" || viaSession) {
    return;
  }
  throw new UsageError(
    `"${target.name}" runs over stdio: a task of an earlier run ended with that run's server`,
    {
      hint: "call the tool again (with --task to run it as a task); a task started through a " +
        "session (jn session start) is collected through it",
    },
  );
}

/**
 * A joined HTTP session the server no longer knows (400 or 404 to the session id): the run
 * that resumed the task first ended it, or the server expired it. Say so, not "check the URL".
 */
export function sessionGone(error: unknown, session: string | undefined): unknown {
  if (
    session !== undefined && error instanceof ConnectionError &&
    /with HTTP 40[04]\b/.test(error.message)
  ) {
    error.hint = `the task's session ${session} is over (a resumed run ends it, or the server ` +
      "expired it), and its tasks with it: start the task again";
  }
  return error;
}

/**
 * The fields of a task (2025-11-25) that the record keeps, in this order: a
 * server's other fields (`text`, `isError`, …) would pass for a result
 * record's, or for jn's own, to a script that reads the record.
 */
export const TASK_FIELDS = [
  "taskId",
  "status",
  "statusMessage",
  "createdAt",
  "lastUpdatedAt",
  "ttl",
  "pollInterval",
] as const;

/**
 * The record `--detach` prints: `type` and `tool`, the task's documented
 * fields ({@linkcode TASK_FIELDS}, those the server sent), the HTTP session
 * it lives in (when the server has sessions) and the source that resumes it.
 */
export function taskRecord(
  target: Target,
  tool: string,
  task: TaskInfo,
  session?: string,
): Record<string, unknown> {
  const record: Record<string, unknown> = { type: "task", tool };
  for (const field of TASK_FIELDS) {
    if (Object.hasOwn(task, field) && task[field] !== undefined) record[field] = task[field];
  }
  if (session !== undefined) record.session = session;
  record.source = resumeSource(target, tool, task.taskId, session);
  return record;
}

/**
 * The source that resumes a task of `tool` (the server's name of it): the
 * server part of the target's source, the tool as the source named it, and
 * `task=ID`.
 */
export function resumeSource(
  target: Target,
  tool: string,
  taskId: string,
  session?: string,
): string {
  const source = target.source;
  const task = `task=${encodeURIComponent(taskId)}` +
    (session === undefined ? "" : `&session=${encodeURIComponent(session)}`);
  if (source.kind === "profile") {
    const asked = source.operation.kind === "tool" ? source.operation.name : tool;
    return `@${source.server}/${encodeURIComponent(asked)}?${task}`;
  }
  return `${source.raw.split("?")[0]}?tool=${encodeURIComponent(tool)}&${task}`;
}
