/**
 * `jn cat|head|tail SOURCE`: call a tool, read a resource, get a prompt or
 * list what a server offers (lib/client/cat.ts), and write the records as
 * NDJSON (SPEC §3). Arguments are converted to the tool's declared types and
 * validated before the call; a tool that answers `isError` makes the run
 * exit 1, with its first line of text on stderr.
 *
 * @module
 */

import { cat, prepareCat } from "../../client/cat.ts";
import { checkFollow, follow } from "../../client/follow.ts";
import { resolveTarget, targetShortName } from "../../client/resolve.ts";
import { sandboxHint } from "../../client/sandbox.ts";
import { visible } from "../../output/visible.ts";
import { sessionRecorded } from "../../client/session_lookup.ts";
import type { TaskInfo, ToolCallResult } from "../../types.ts";
import { type ConnectionValues, withConnection } from "../connect.ts";
import type { Cli, Outcome } from "../context.ts";
import { printErr } from "../io.ts";
import { ProgressReporter } from "../progress.ts";
import { RecordSink, type SinkMode } from "../record_sink.ts";
import type { Invocation } from "../table/command.ts";
import type { CAT, HEAD, TAIL } from "../table/commands.ts";

/** `jn cat|head|tail SOURCE`. */
export function run(cli: Cli, call: Invocation<typeof CAT | typeof HEAD | typeof TAIL>) {
  const { options } = call;
  const name = call.command.path[0];
  const mode: SinkMode = "lines" in options
    ? { kind: name as "head" | "tail", n: options.lines }
    : { kind: "all" };
  const follows = "follow" in options && options.follow === true;
  // With --follow, an explicit --timeout is how long to follow (else until Ctrl-C).
  if (follows) {
    return runFollow(
      cli,
      call.args.source,
      options,
      call.given.has("timeoutMs") ? options.timeoutMs : 0,
    );
  }
  return runCat(cli, call.args.source, {
    mode,
    options,
    task: options.task === true,
    detach: options.detach === true,
  }).catch(async (error) => {
    if (options.args !== undefined) throw error;
    const { pipedArgumentsHint } = await import("../stdin_hint.ts");
    throw await pipedArgumentsHint(cli.io, error, call.args.source);
  });
}

/** The options of cat, head and tail that reach {@linkcode runCat}. */
type CatValues = Invocation<typeof CAT | typeof HEAD | typeof TAIL>["options"];

/** Options of {@linkcode runCat}. */
interface CatOptions {
  mode: SinkMode;
  options: CatValues;
  /** `--task`. */
  task: boolean;
  /** `--detach`. */
  detach: boolean;
}

/** Runs cat/head/tail on a source given as text. */
async function runCat(cli: Cli, sourceText: string, options: CatOptions): Promise<Outcome> {
  const flags = options.options;
  const { io } = cli;
  const target = await resolveTarget(sourceText, { cwd: io.cwd, env: io.env });
  const operation = target.operation;
  // A session holds a stdio server's tasks (connecting checks again).
  const heldBySession = target.launch.transport === "stdio" &&
    (options.detach || operation.kind === "task") &&
    await sessionRecorded(target, { env: io.env, noSession: flags.noSession });
  const args = prepareCat(target, {
    args: flags.args,
    arg: flags.arg,
    task: options.task,
    detach: options.detach,
    heldBySession,
  });
  const sink = new RecordSink(io.stdout, options.mode);
  return await withConnection(cli, target, flags, async (conn) => {
    const what = operation.kind === "tool"
      ? operation.name
      : operation.kind === "task"
      ? operation.tool ?? "task"
      : operation.kind;
    const progress = new ProgressReporter(io, `${targetShortName(target)} ${what}`, {
      lines: flags.progress === true,
      quiet: cli.quiet,
    });
    let result;
    try {
      result = await cat(conn, {
        args,
        json: flags.json === true,
        allowUnknown: flags.allowUnknown === true,
        onProgress: (update) => progress.update(update),
        task: options.task,
        detach: options.detach,
        saveDir: flags.saveDir,
        maxBytes: flags.maxBytes,
        onTaskStatus: (task) =>
          progress.note(taskStatusLine(task), { keep: task.status === "input_required" }),
      });
    } finally {
      await progress.done();
    }
    if (result.toolError && !cli.quiet) {
      const { tool, result: answer } = result.toolError;
      await printErr(
        io,
        conn.redact(`jn: Tool "${tool}" answered with an error${firstText(answer)}`),
      );
      if (conn.sandbox) await printErr(io, `hint: ${sandboxHint(conn.sandbox.policy)}`);
    }
    for (const record of result.records) {
      await sink.write(record);
      if (sink.done) break;
    }
    await sink.end();
    return result.toolError ? "tool_error" : "ok";
  });
}

/** `task ID STATUS: MESSAGE`, as shown on stderr. */
function taskStatusLine(task: TaskInfo): string {
  const message = task.statusMessage ? `: ${task.statusMessage}` : "";
  return `task ${task.taskId} ${task.status}${message}`;
}

/** `cat --follow`: each version of a resource or list, its records marked with `version`. */
async function runFollow(
  cli: Cli,
  sourceText: string,
  flags: ConnectionValues & { arg?: string[]; args?: string; saveDir?: string; maxBytes?: number },
  durationMs: number,
): Promise<Outcome> {
  const { io } = cli;
  const target = await resolveTarget(sourceText, { cwd: io.cwd, env: io.env });
  checkFollow(target, flags); // a usage error before any server starts
  const sink = new RecordSink(io.stdout, { kind: "all" });
  return await withConnection(cli, target, flags, async (conn, signal) => {
    await follow(conn, {
      signal,
      durationMs,
      onVersion: async (records) => {
        for (const record of records) await sink.write(record);
        // The reader went away (`| head -3`): stop following, successfully.
        if (sink.done) throw new StopFollowing();
      },
    }).catch((error) => {
      if (!(error instanceof StopFollowing)) throw error;
    });
    await sink.end();
    return "ok" as const;
  });
}

class StopFollowing extends Error {}

function firstText(result: ToolCallResult): string {
  const text = result.content?.find((item) => item.type === "text")?.text;
  if (typeof text !== "string" || text.trim() === "") return "";
  const line = text.trim().split("\n")[0];
  return `: ${visible(line.length > 200 ? `${line.slice(0, 200)}…` : line, { oneLine: true })}`;
}
