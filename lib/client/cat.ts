/**
 * `cat` as a verb: runs the operation a source names — call a tool, read a
 * resource, get a prompt, or list — and returns jn's records of it
 * (SPEC §3, lib/output/records.ts). A tool that answers `isError` gives its
 * records (each marked `"isError": true`) and the result, for the caller to
 * decide what that means (the CLI exits 1). A tool run as a task
 * (lib/client/task.ts) gives the same records; `detach` gives the task's
 * record instead, and a `?task=ID` source the records of that task's result.
 * Binary content may go to files (`saveDir`), and the records be bounded in
 * bytes (`maxBytes`), for readers with little room: agents.
 *
 * @module
 */

import { type ArgPairs, collectArgs } from "../args/collect.ts";
import { UsageError } from "../errors.ts";
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
import { requireDetachable, requireResumable, sessionGone, taskRecord } from "./detach.ts";
import { awaitTask, startTask, wantsTask } from "./task.ts";
import { getPrompt, list, read } from "./verbs.ts";
import { saveBinaries } from "./save_binary.ts";
import { boundRecords } from "./bound_records.ts";

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
  /**
   * Write images, audio and blobs to files in this directory (relative to
   * the connection's `cwd`) and give their paths instead of base64
   * (save_binary.ts).
   */
  saveDir?: string;
  /** Bound the records' NDJSON bytes: what is cut is said by a `truncated` record (bound_records.ts). */
  maxBytes?: number;
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
 * import { cat, open, prepareCat } from "@jn/jn";
 *
 * const env = Deno.env.toObject();
 * await using conn = await open("@demo/add?a=2&b=40", { cwd: Deno.cwd(), env });
 * const args = prepareCat(conn.target);
 * const { records } = await cat(conn, { args });
 * console.log(records); // [{type: "tool_result", …}, {type: "structured_result", …}]
 * ```
 */
export async function cat(conn: Connection, options: CatOptions = {}): Promise<CatResult> {
  const result = await operationRecords(conn, options);
  if (options.saveDir !== undefined) {
    const target = { dir: options.saveDir, cwd: conn.options.cwd };
    result.records = await saveBinaries(result.records, target);
  }
  if (options.maxBytes !== undefined) {
    result.records = boundRecords(result.records, options.maxBytes, { cutText: !options.json });
  }
  return result;
}

/** The records of the target's operation, as the server gave them. */
async function operationRecords(conn: Connection, options: CatOptions): Promise<CatResult> {
  const operation = conn.target.operation;
  checkCatMode(conn.target, { ...options, heldBySession: conn.via !== undefined });
  if (options.args !== undefined) refuseArguments(conn.target, argumentNames(options.args));
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
export function requireOperation(target: Target, sourceText: string = target.source.raw): void {
  if (target.operation.kind !== "none") return;
  throw new UsageError(
    `Nothing to read from "${sourceText}": name a tool, resource, prompt or list`,
    {
      hint: "add ?tool=NAME, ?resource=URI, ?prompt=NAME or ?list=tools (see 'jn inspect SOURCE')",
    },
  );
}

/** Where a call's arguments come from besides its target: the `--args` and `--arg` forms. */
export interface ArgInput {
  /** A JSON object's text (`--args`). */
  args?: string;
  /** Each `NAME=VALUE` (`--arg`), in order. */
  arg?: string[];
}

/** How a cat runs besides its operation. */
export interface CatMode {
  /** Run the tool as a task (`--task`). */
  task?: boolean;
  /** Start the tool as a task and return at once (`--detach`). */
  detach?: boolean;
  /**
   * A jn session holds the target's stdio server (`sessionRecorded`): its
   * tasks outlive a run, so `detach` and `?task=ID` may use it (connecting
   * checks again). {@linkcode cat} knows it from its connection.
   */
  heldBySession?: boolean;
}

/**
 * The arguments of a cat of `target` — its query and defaults, `args` and
 * `arg` merged (lib/args/collect.ts) — after checking, before any server
 * starts, that it can run as asked: it names something to do, arguments go
 * to tools and prompts only, `task`/`detach` to tool calls only, `detach`
 * to a server that keeps tasks, and a `?task=ID` to a server that outlives
 * a run. UsageError (exit 2) otherwise. {@linkcode cat} checks the same of
 * what it is given.
 *
 * @example
 * ```ts
 * import { prepareCat, resolveTarget } from "@jn/jn";
 *
 * const target = await resolveTarget("@demo/add?a=2", { cwd: Deno.cwd(), env: {} });
 * const args = prepareCat(target, { arg: ["b=40"] }); // Map { "a" => …, "b" => … }
 * const list = await resolveTarget("@demo?list=tools", { cwd: Deno.cwd(), env: {} });
 * try {
 *   prepareCat(list, { arg: ["a=1"] });
 * } catch (error) {
 *   console.log((error as Error).message); // "Arguments are not used with list=: a"
 * }
 * ```
 */
export function prepareCat(target: Target, request: ArgInput & CatMode = {}): ArgPairs {
  requireOperation(target);
  // Syntax errors in --arg/--args are reported before any server starts.
  const args = collectArgs({
    query: target.queryArgs,
    args: request.args,
    arg: request.arg ?? [],
    defaults: target.defaults,
  });
  refuseArguments(target, givenArguments(target, request));
  checkCatMode(target, request);
  return args;
}

/** The arguments a caller gave, by name: query keys, `--arg` names, and `--args` as itself. */
export function givenArguments(target: Target, input: ArgInput = {}): string[] {
  const given = [
    ...target.queryArgs.map((a) => a.key),
    ...(input.arg ?? []).map((a) => a.split("=")[0]),
  ];
  if (input.args !== undefined) given.push("--args");
  return given;
}

/** A usage error for arguments given to an operation that takes none (a list, resource, task). */
function refuseArguments(target: Target, given: readonly string[]): void {
  const kind = target.operation.kind;
  if (given.length === 0 || (kind !== "list" && kind !== "resource" && kind !== "task")) return;
  throw new UsageError(`Arguments are not used with ${kind}=: ${given.join(", ")}`, {
    hint: kind === "task"
      ? "the task already runs with the arguments it was started with"
      : "arguments go to tools (?tool=) and prompts (?prompt=)",
  });
}

/** `task`/`detach` only for a tool call, `detach` only where a task outlives the run. */
function checkCatMode(target: Target, mode: CatMode): void {
  if ((mode.task || mode.detach) && target.operation.kind !== "tool") {
    throw new UsageError(`${mode.detach ? "--detach" : "--task"} applies to tool calls only`, {
      hint: "name a tool: SOURCE?tool=NAME or @server/tool",
    });
  }
  if (mode.detach) requireDetachable(target, mode.heldBySession);
  requireResumable(target, mode.heldBySession);
}

function argumentNames(args: ArgPairs | Record<string, unknown>): string[] {
  return args instanceof Map ? [...args.keys()] : Object.keys(args);
}
