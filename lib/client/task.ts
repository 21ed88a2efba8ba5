/**
 * Tasks (2025-11-25, SEP-1686) the way jn uses them: a tool whose
 * `execution.taskSupport` is `required` is called as a task, one that is
 * `optional` when the caller asks (`--task`), and never on a server whose
 * capabilities lack `tasks.requests.tools.call` (the spec forbids it). The
 * task is polled with `tasks/get` at the server's `pollInterval` (a
 * `notifications/tasks/status` stands for the next poll), each change of
 * status reported (`onStatus`); on `input_required` jn calls
 * `tasks/result` at once, so the server can ask its questions (elicitation,
 * sampling) through the session's usual handlers; a final status gives the
 * result of `tasks/result`.
 *
 * Bounds: the task, like a request, is bounded by the timeout since its last
 * change of status (not running while it is `input_required`: someone may be
 * answering), within `HARD_BOUND_FACTOR` × the timeout in all; a timeout says
 * how long jn really waited. Its questions are bounded too
 * (lib/client/questions.ts): a task that asks more than its calls allow is
 * cancelled at once (a ProtocolError), not waited for until the hard bound. A
 * timeout, Ctrl-C (the connection's signal) or any failure while the task is
 * not final sends `tasks/cancel` before the error goes up: no task is left
 * running on the server behind jn's back — except a detached one, which is
 * the point of `--detach` (lib/client/detach.ts).
 *
 * @module
 */

import { ProtocolError, TimeoutError, UsageError } from "../errors.ts";
import { HARD_BOUND_FACTOR } from "../session/bounds.ts";
import type { TaskInfo, ToolCallResult, ToolInfo } from "../types.ts";
import type { Connection } from "./connection.ts";
import { OPEN_DEFAULTS } from "./options.ts";
import { MAX_QUESTIONS_PER_CALL } from "./questions.ts";

/** What a tool says about being called as a task (`execution.taskSupport`). */
export type TaskSupport = "required" | "optional" | "forbidden";

/** Options of a call made as a task. */
export interface TaskCallOptions {
  /** The task's status, each time it changes (status or message). */
  onStatus?: (task: TaskInfo) => void;
  /** How long the server should keep the task (ms); the server decides. */
  ttlMs?: number;
}

/** The default bound when the connection was opened without one (as open() does). */
/** Poll interval when the server suggests none, and the range a suggestion is kept in. */
const POLL_DEFAULT_MS = 1000;
const POLL_MIN_MS = 50;
const POLL_MAX_MS = 30_000;

const FINAL = new Set(["completed", "failed", "cancelled"]);

/** The tool's `execution.taskSupport` (absent or unknown: `forbidden`, as the spec says). */
export function taskSupport(tool: ToolInfo): TaskSupport {
  const execution = tool.execution as { taskSupport?: unknown } | undefined;
  const value = execution?.taskSupport;
  return value === "required" || value === "optional" ? value : "forbidden";
}

/** Whether the server runs `tools/call` as tasks (`capabilities.tasks.requests.tools.call`). */
export function serverRunsToolTasks(conn: Connection): boolean {
  const tasks = conn.session.server.capabilities.tasks as
    | { requests?: { tools?: { call?: unknown } } }
    | undefined;
  return tasks?.requests?.tools?.call !== undefined;
}

/**
 * Whether to call `tool` as a task: always when it requires one (and the
 * server runs tasks), when `asked` if it allows one; asking where it cannot
 * be done is a usage error.
 */
export function wantsTask(conn: Connection, tool: ToolInfo, asked: boolean): boolean {
  const support = taskSupport(tool);
  const server = serverRunsToolTasks(conn);
  if (!asked) return support === "required" && server;
  if (!server) {
    throw new UsageError(`The server "${conn.target.name}" does not run tools as tasks`, {
      hint: "call it without --task/--detach (its capabilities lack tasks.requests.tools.call)",
    });
  }
  if (support === "forbidden") {
    throw new UsageError(`Tool "${tool.name}" cannot be called as a task`, {
      hint:
        "call it without --task/--detach (its execution.taskSupport is not optional or required)",
    });
  }
  return true;
}

/** Starts `tool` as a task (arguments already prepared) and returns the task. */
export async function startTask(
  conn: Connection,
  tool: string,
  args: Record<string, unknown>,
  options: TaskCallOptions = {},
): Promise<TaskInfo> {
  const tasks = conn.session.tasks;
  const signal = conn.options.signal;
  try {
    const created = tasks.callTool(tool, args, { ttlMs: options.ttlMs });
    const task = await untilAborted(created, signal);
    if (task === undefined) {
      // Interrupted while the server was creating it: cancel the task once it is known.
      await within(created.then((late) => tasks.cancel(late.taskId)), CANCEL_WAIT_MS);
      throw signal!.reason;
    }
    options.onStatus?.(task);
    return task;
  } catch (error) {
    throw conn.explain(error);
  }
}

/** How long an interrupted creation may still take to answer (to cancel what it created). */
const CANCEL_WAIT_MS = 3000;

/** `promise`'s value, or undefined as soon as `signal` aborts. */
function untilAborted<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T | undefined> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const onAbort = () => resolve(undefined);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/** Waits for `promise` (its failure ignored) at most `ms`. */
async function within(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    promise.catch(() => {}),
    new Promise((resolve) => timer = setTimeout(resolve, ms)),
  ]);
  clearTimeout(timer);
}

/** Calls `tool` as a task and waits for its result (see {@linkcode awaitTask}). */
export async function callAsTask(
  conn: Connection,
  tool: string,
  args: Record<string, unknown>,
  options: TaskCallOptions = {},
): Promise<ToolCallResult> {
  const task = await startTask(conn, tool, args, options);
  return await awaitTask(conn, task, { ...options, known: true });
}

/**
 * Waits for a task (or a task id: `?task=ID`) to end and returns its result.
 * Sends `tasks/cancel` if it gives up first (timeout, Ctrl-C, failure).
 */
export async function awaitTask(
  conn: Connection,
  task: TaskInfo | string,
  options: TaskCallOptions & { known?: boolean } = {},
): Promise<ToolCallResult> {
  const tasks = conn.session.tasks;
  const signal = conn.options.signal;
  const timeoutMs = conn.options.timeoutMs ?? OPEN_DEFAULTS.timeoutMs;
  const id = typeof task === "string" ? task : task.taskId;
  let current: TaskInfo | undefined;
  let result: Promise<ToolCallResult> | undefined;
  // A status notification (servers may send them) ends the wait before the next poll.
  let notified: TaskInfo | undefined;
  let wake: (() => void) | undefined;
  const unsubscribe = tasks.onStatus((update) => {
    if (update.taskId !== id) return;
    notified = update;
    wake?.();
  });
  // A server that keeps asking (each answer met by a new question) ends the wait.
  let nagging = false;
  const stopNagging = conn.onTooManyQuestions(() => {
    nagging = true;
    wake?.();
  });
  try {
    current = typeof task === "string" ? await tasks.get(id) : task;
    const started = Date.now();
    let lastChange = started;
    let seen = options.known ? stateOf(current) : undefined;
    for (;;) {
      if (nagging) throw naggingError(conn, id);
      const state = stateOf(current);
      if (state !== seen) {
        seen = state;
        lastChange = Date.now();
        options.onStatus?.(current);
      }
      if (current.status === "cancelled") {
        throw new ProtocolError(`The task "${id}" was cancelled on the server`, {
          hint: current.statusMessage
            ? `it said: ${current.statusMessage}`
            : "someone (the server or another client) cancelled it",
        });
      }
      if (current.status === "input_required" || FINAL.has(current.status)) {
        // tasks/result is where the server asks its questions; it answers once the task is final.
        result ??= tasks.result(id, { timeoutMs: 0 });
      }
      if (FINAL.has(current.status)) return await result!;
      const now = Date.now();
      // A person may be answering the server's question: only the hard bound runs meanwhile.
      if (current.status === "input_required") lastChange = now;
      const hardBound = started + timeoutMs * HARD_BOUND_FACTOR;
      const deadline = timeoutMs > 0 ? Math.min(lastChange + timeoutMs, hardBound) : Infinity;
      if (now >= deadline) {
        // How long jn waited: since the last change, or in all when the hard bound ended it.
        const waited = now - (deadline === hardBound ? started : lastChange);
        throw new TimeoutError(`task "${id}" to finish`, waited, {
          hint: deadline === hardBound
            ? `jn cancelled the task: it waits at most ${HARD_BOUND_FACTOR} × --timeout in all ` +
              "(e.g. --timeout 10m)"
            : "jn cancelled the task; raise the bound with --timeout (e.g. --timeout 10m)",
        });
      }
      const wait = Math.min(
        Math.max(current.pollInterval ?? POLL_DEFAULT_MS, POLL_MIN_MS),
        POLL_MAX_MS,
        deadline - now,
      );
      const answer = notified ? undefined : await pause(wait, result, signal, (w) => wake = w);
      if (answer) return answer.value;
      if (notified) {
        current = { ...current, ...notified };
        notified = undefined;
      } else {
        current = await tasks.get(id);
      }
    }
  } catch (error) {
    if (current === undefined || !FINAL.has(current.status)) {
      await tasks.cancel(id).catch(() => {});
    }
    throw conn.explain(error);
  } finally {
    unsubscribe();
    stopNagging();
    // A tasks/result left behind must not surface as an unhandled rejection.
    result?.catch(() => {});
  }
}

/** The error of a task whose server asked more questions than its calls allow. */
function naggingError(conn: Connection, id: string): ProtocolError {
  return new ProtocolError(
    `The task "${id}" kept asking questions: ${conn.questionsAsked} of them, past the bound ` +
      `of ${MAX_QUESTIONS_PER_CALL} per call`,
    { hint: "jn cancelled the task; the server is broken or hostile, report it" },
  );
}

function stateOf(task: TaskInfo): string {
  return `${task.status}\0${task.statusMessage ?? ""}`;
}

/**
 * Sleeps `ms`, or less when `result` settles (its value), `signal` aborts
 * (its reason, thrown) or the wake function given to `onWake` is called;
 * resolves undefined when the time is up or on waking.
 */
function pause(
  ms: number,
  result: Promise<ToolCallResult> | undefined,
  signal: AbortSignal | undefined,
  onWake: (wake: () => void) => void,
): Promise<{ value: ToolCallResult } | undefined> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    onWake(() => {
      done();
      resolve(undefined);
    });
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    };
    const onAbort = () => {
      done();
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      done();
      resolve(undefined);
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
    result?.then((value) => {
      done();
      resolve({ value });
    }, (error) => {
      done();
      reject(error);
    });
  });
}
