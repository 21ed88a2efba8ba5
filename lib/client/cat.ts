/**
 * `cat` as a verb: runs the operation a source names — call a tool, read a
 * resource, get a prompt, or list — and returns jn's records of it
 * (SPEC §3, lib/output/records.ts). A tool that answers `isError` gives its
 * records (each marked `"isError": true`) and the result, for the caller to
 * decide what that means (the CLI exits 1). A tool run as a task
 * (lib/client/task.ts) gives the same records; `detach` gives the task's
 * record instead, and a `?task=ID` source the records of that task's result.
 *
 * @module
 */

import type { ArgPairs } from "../args/collect.ts";
import { ConnectionError, UsageError } from "../errors.ts";
import {
  promptMessageRecords,
  promptRecords,
  resourceContentRecords,
  resourceRecords,
  resourceTemplateRecords,
  toolRecords,
  toolResultRecords,
} from "../output/records.ts";
import type { ProgressUpdate, TaskInfo, ToolCallResult } from "../types.ts";
import { call, prepareCall } from "./call.ts";
import type { Connection } from "./connection.ts";
import type { Target } from "./resolve.ts";
import { requireDetachable, taskRecord } from "./detach.ts";
import { awaitTask, startTask, wantsTask } from "./task.ts";
import { getPrompt, list, read } from "./verbs.ts";

/** Options of {@linkcode cat}. */
export interface CatOptions {
  /** Arguments of a tool or prompt (the target's query and defaults are not added here). */
  args?: ArgPairs | Record<string, unknown>;
  /** The payload instead of the envelope (`--json`): of a tool's result, or of a JSON resource. */
  json?: boolean;
  /** Progress notifications of a tool call. */
  onProgress?: (update: ProgressUpdate) => void;
  /** Send arguments the tool's schema (or the prompt) does not declare (`--allow-unknown`). */
  allowUnknown?: boolean;
  /** Call the tool as a task where it allows one (`--task`); one that requires it always is. */
  task?: boolean;
  /**
   * Start the tool as a task and return its `{"type":"task",…}` record at
   * once, without waiting (`--detach`; remote servers only).
   */
  detach?: boolean;
  /** The status of a task, each time it changes. */
  onTaskStatus?: (task: TaskInfo) => void;
}

/** What {@linkcode cat} produced. */
export interface CatResult {
  /** The records, in order (objects; with `json`, any JSON value of the payload). */
  records: unknown[];
  /** Set when the tool answered `isError`: the tool and its result. */
  toolError?: { tool: string; result: ToolCallResult };
}

/**
 * Runs the operation of the connection's target.
 *
 * @example
 * ```ts
 * import { cat, collectArgs, open } from "@jn/jn";
 *
 * const env = Deno.env.toObject();
 * await using conn = await open("@demo/add?a=2&b=40", { cwd: Deno.cwd(), env });
 * const { target } = conn;
 * const args = collectArgs({ query: target.queryArgs, defaults: target.defaults });
 * const { records } = await cat(conn, { args });
 * console.log(records); // [{type: "tool_result", …}, {type: "structured_result", …}]
 * ```
 */
export async function cat(conn: Connection, options: CatOptions = {}): Promise<CatResult> {
  const operation = conn.target.operation;
  switch (operation.kind) {
    case "list":
      switch (operation.what) {
        case "tools":
          return { records: toolRecords(await list(conn, "tools")) };
        case "resources":
          return { records: resourceRecords(await list(conn, "resources")) };
        case "templates":
          return { records: resourceTemplateRecords(await list(conn, "templates")) };
        case "prompts":
          return { records: promptRecords(await list(conn, "prompts")) };
      }
      break;
    case "resource":
      return {
        records: resourceContentRecords(await read(conn, operation.uri), { json: options.json }),
      };
    case "prompt":
      return {
        records: promptMessageRecords(
          operation.name,
          await getPrompt(conn, operation.name, options.args, {
            allowUnknown: options.allowUnknown,
          }),
        ),
      };
    case "tool": {
      if (options.detach) return { records: [await detach(conn, operation.name, options)] };
      const result = await call(conn, operation.name, options.args, {
        onProgress: options.onProgress,
        allowUnknown: options.allowUnknown,
        task: options.task,
        onTaskStatus: options.onTaskStatus,
      });
      return toolOutcome(operation.name, result, options);
    }
    case "task": {
      requireTaskServer(conn, operation.session);
      const result = await awaitTask(conn, operation.id, { onStatus: options.onTaskStatus })
        .catch((error) => {
          throw sessionGone(error, operation.session);
        });
      return toolOutcome(operation.tool ?? "", result, options);
    }
    case "none":
      requireOperation(conn.target);
  }
  return { records: [] };
}

/** A usage error for `?task=ID` on a stdio server: a task of an earlier run ended with it. */
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
 * `?task=ID` where no task can be: a stdio server started for this run (a task of an earlier
 * run ended with its server), or a server whose capabilities have no tasks. A joined session
 * (`session=`) had no handshake, so its capabilities are unknown: the server answers for it.
 */
function requireTaskServer(conn: Connection, session: string | undefined): void {
  const name = conn.target.name;
  requireResumable(conn.target, conn.via !== undefined);
  if (session === undefined && conn.session.server.capabilities.tasks === undefined) {
    throw new UsageError(`The server "${name}" does not run tasks`, {
      hint: "its capabilities lack tasks: there is no task to wait for",
    });
  }
}

/**
 * A joined HTTP session the server no longer knows (400 or 404 to the session id): the run
 * that resumed the task first ended it, or the server expired it. Say so, not "check the URL".
 */
function sessionGone(error: unknown, session: string | undefined): unknown {
  if (
    session !== undefined && error instanceof ConnectionError &&
    /with HTTP 40[04]\b/.test(error.message)
  ) {
    error.hint = `the task's session ${session} is over (a resumed run ends it, or the server ` +
      "expired it), and its tasks with it: start the task again";
  }
  return error;
}

function toolOutcome(tool: string, result: ToolCallResult, options: CatOptions): CatResult {
  const records = toolResultRecords(tool, result, { json: options.json });
  return result.isError === true ? { records, toolError: { tool, result } } : { records };
}

/** Starts the tool as a task and gives the record that resumes it. */
async function detach(conn: Connection, tool: string, options: CatOptions): Promise<unknown> {
  requireDetachable(conn.target, conn.via !== undefined);
  const { info, prepared } = await prepareCall(
    conn,
    tool,
    options.args ?? {},
    options.allowUnknown,
  );
  wantsTask(conn, info, true);
  const task = await startTask(conn, tool, prepared);
  return taskRecord(conn.target, tool, task, conn.session.tasks.keepSession());
}

/** A usage error when the target names nothing to do (`cat` needs a tool, resource, prompt or list). */
export function requireOperation(target: Target, sourceText: string = target.name): void {
  if (target.operation.kind !== "none") return;
  throw new UsageError(
    `Nothing to read from "${sourceText}": name a tool, resource, prompt or list`,
    {
      hint: "add ?tool=NAME, ?resource=URI, ?prompt=NAME or ?list=tools (see 'jn inspect SOURCE')",
    },
  );
}
