/**
 * The requests of tasks (2025-11-25, SEP-1686) through the SDK client, which
 * has no high-level API for them: a task-augmented `tools/call`
 * (`params.task`, answered by a CreateTaskResult), `tasks/get`,
 * `tasks/result` and `tasks/cancel`, each sent with `client.request()` and a
 * result check of jn's own (a Standard Schema, like call_result_schema.ts).
 *
 * The checks are lenient where the spec lets a client be: a task needs an id
 * and a known status; `createdAt`, `lastUpdatedAt` and `ttl`, which the SDK's
 * schema requires, are kept when present and not demanded. `tasks/cancel` is
 * sent even after Ctrl-C aborted the session's other requests: stopping the
 * server's work is the point of it. `notifications/tasks/status`, which a
 * server may send, reach the listeners of `onStatus`.
 *
 * @module
 */

import type { Client, RequestOptions, StandardSchemaV1 } from "@modelcontextprotocol/client";
import type { TaskInfo, ToolCallResult } from "../types.ts";
import { CALL_TOOL_RESULT } from "./call_result_schema.ts";
import type { SessionTasks } from "./types.ts";

/** How long `tasks/cancel` may take (it is sent on the way out). */
export const CANCEL_MS = 3000;

/** How a request is sent: the session's bounded request, with its errors translated. */
export type TaskRequestRunner = <T>(
  label: string,
  run: (options: RequestOptions) => Promise<T>,
  bounds?: { timeoutMs?: number; ignoreSignal?: boolean },
) => Promise<T>;

const STATUSES = new Set(["working", "input_required", "completed", "failed", "cancelled"]);

type Issue = { message: string; path?: PropertyKey[] };

function taskIssues(value: unknown, path: PropertyKey[]): Issue[] {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return [{ message: "the task is not an object", path }];
  }
  const task = value as Record<string, unknown>;
  const issues: Issue[] = [];
  if (typeof task.taskId !== "string" || task.taskId === "") {
    issues.push({ message: "the task has no taskId", path: [...path, "taskId"] });
  }
  if (typeof task.status !== "string" || !STATUSES.has(task.status)) {
    issues.push({ message: `unknown task status ${JSON.stringify(task.status)}`, path });
  }
  if (task.pollInterval !== undefined && typeof task.pollInterval !== "number") {
    issues.push({ message: "pollInterval is not a number", path: [...path, "pollInterval"] });
  }
  if (task.statusMessage !== undefined && typeof task.statusMessage !== "string") {
    issues.push({ message: "statusMessage is not a string", path: [...path, "statusMessage"] });
  }
  return issues;
}

function schema<T>(pick: (value: Record<string, unknown>) => unknown): StandardSchemaV1<
  unknown,
  T
> {
  return {
    "~standard": {
      version: 1,
      vendor: "jn",
      validate(value: unknown) {
        if (typeof value !== "object" || value === null) {
          return { issues: [{ message: "the result is not an object" }] };
        }
        const task = pick(value as Record<string, unknown>);
        const issues = taskIssues(task, task === value ? [] : ["task"]);
        return issues.length > 0 ? { issues } : { value: task as T };
      },
    },
  };
}

/** A CreateTaskResult, as its task. */
const CREATE_TASK_RESULT = schema<TaskInfo>((result) => result.task);
/** A task (the result of `tasks/get` and `tasks/cancel`). */
const TASK = schema<TaskInfo>((result) => result);

/** The tasks of one SDK client. */
export class SdkTasks implements SessionTasks {
  #client: Client;
  #request: TaskRequestRunner;

  #keep: () => string | undefined;
  #listeners = new Set<(task: TaskInfo) => void>();

  constructor(client: Client, request: TaskRequestRunner, keepSession: () => string | undefined) {
    this.#client = client;
    this.#request = request;
    this.#keep = keepSession;
    // Through the schema form: the SDK's types no longer list this 2025-11-25 method.
    client.setNotificationHandler("notifications/tasks/status", { params: TASK }, (task) => {
      for (const listener of this.#listeners) listener(task);
    });
  }

  onStatus(listener: (task: TaskInfo) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  keepSession(): string | undefined {
    return this.#keep();
  }

  callTool(
    name: string,
    args: Record<string, unknown>,
    options: { ttlMs?: number } = {},
  ): Promise<TaskInfo> {
    const task = options.ttlMs === undefined ? {} : { ttl: options.ttlMs };
    return this.#request(
      `tools/call "${name}" (as a task)`,
      (o) =>
        this.#client.request(
          { method: "tools/call", params: { name, arguments: args, task } },
          CREATE_TASK_RESULT,
          o,
        ),
      { ignoreSignal: true },
    );
  }

  get(taskId: string): Promise<TaskInfo> {
    return this.#request(
      `tasks/get "${taskId}"`,
      (o) => this.#client.request({ method: "tasks/get", params: { taskId } }, TASK, o),
    );
  }

  result(taskId: string, options: { timeoutMs?: number } = {}): Promise<ToolCallResult> {
    return this.#request(
      `tasks/result "${taskId}"`,
      (o) =>
        this.#client.request({ method: "tasks/result", params: { taskId } }, CALL_TOOL_RESULT, o),
      { timeoutMs: options.timeoutMs },
    );
  }

  cancel(taskId: string): Promise<TaskInfo> {
    return this.#request(
      `tasks/cancel "${taskId}"`,
      (o) => this.#client.request({ method: "tasks/cancel", params: { taskId } }, TASK, o),
      { timeoutMs: CANCEL_MS, ignoreSignal: true },
    );
  }
}
