/**
 * MCP tasks (2025-11-25) below `cat`: whether a tool runs as a task, start
 * one and wait for it, and the record and source that resume a detached
 * task from a later run (`jn cat …?task=ID`). `cat(conn, { task: true })`
 * and `cat(conn, { detach: true })` use these; a program that wants the
 * steps calls them itself.
 *
 * @example Whether a tool must, may or must not run as a task
 * ```ts
 * import { taskSupport } from "@jn/jn/tasks";
 *
 * const tool = { name: "slow", inputSchema: { type: "object" }, execution: { taskSupport: "optional" } };
 * console.log(taskSupport(tool)); // "optional"
 * ```
 *
 * @module
 */

export {
  awaitTask,
  callAsTask,
  serverRunsToolTasks,
  startTask,
  type TaskCallOptions,
  type TaskSupport,
  taskSupport,
  wantsTask,
} from "../lib/client/task.ts";
export { requireDetachable, resumeSource, taskRecord } from "../lib/client/detach.ts";
