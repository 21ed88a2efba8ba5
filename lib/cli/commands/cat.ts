/**
 * `jn cat|head|tail SOURCE`: call a tool, read a resource, get a prompt or
 * list what a server offers (lib/client/cat.ts), and write the records as
 * NDJSON (SPEC §3). Arguments are converted to the tool's declared types and
 * validated before the call; a tool that answers `isError` makes the run
 * exit 1, with its first line of text on stderr.
 *
 * @module
 */

import type { Command } from "commander";
import { collectArgs } from "../../args/collect.ts";
import { cat, requireOperation, requireResumable } from "../../client/cat.ts";
import { follow, followTarget } from "../../client/follow.ts";
import { resolveTarget } from "../../client/resolve.ts";
import { sandboxHint } from "../../client/sandbox.ts";
import { UsageError } from "../../errors.ts";
import { visible } from "../../output/visible.ts";
import { requireDetachable } from "../../client/detach.ts";
import type { TaskInfo, ToolCallResult } from "../../types.ts";
import { withConnection } from "../connect.ts";
import { action, type Cli, type Outcome } from "../context.ts";
import { printErr } from "../io.ts";
import {
  addArgumentOptions,
  addConnectionOptions,
  type CallFlags,
  parseCallFlags,
  type RawCallFlags,
} from "../options.ts";
import { ProgressReporter } from "../progress.ts";
import { RecordSink, type SinkMode } from "../record_sink.ts";
import { catHelp } from "../source_help.ts";

const DESCRIPTIONS = {
  cat: "call a tool, read a resource, get a prompt or list (?list=) → NDJSON",
  head: "the first N records of cat (default 10)",
  tail: "the last N records of cat (default 10)",
} as const;

/** Registers `cat`, `head` and `tail`. */
export function registerCat(program: Command, cli: Cli): void {
  for (const name of ["cat", "head", "tail"] as const) {
    const command = program.command(name)
      .description(DESCRIPTIONS[name])
      .argument("<source>", "mcp+LAUNCHER://… URI or @profile reference");
    if (name !== "cat") command.option("-n, --lines <N>", "how many records", "10");
    command.option(
      "--json",
      "emit the payload (structured content or parsed JSON text of a tool, a JSON resource's value) instead of the envelope",
    );
    command
      .option("--task", "call the tool as a task (where it allows one) and wait for it")
      .option("--detach", "remote: start the tool as a task, print its record and exit");
    if (name === "cat") {
      command.option(
        "--follow",
        "resource: print it again on every update; list: again on every change (until Ctrl-C or an explicit --timeout)",
      );
    }
    addArgumentOptions(command);
    addConnectionOptions(command);
    command.addHelpText("after", catHelp(name));
    command.action(action(
      cli,
      (source: string, raw: CatCommandFlags, self: Command) =>
        catCommand(cli, name, source, raw, self.getOptionValueSource("timeout") === "cli"),
    ));
  }
}

/** The flags of cat/head/tail, as commander gives them. */
export type CatCommandFlags = RawCallFlags & CatFlags;

/**
 * `jn cat|head|tail SOURCE`: the action, also run without commander
 * (lib/cli/light_calls.ts). `timeoutGiven`: whether `--timeout` was on the
 * command line (with `--follow`, how long to follow; else until Ctrl-C).
 */
export function catCommand(
  cli: Cli,
  name: "cat" | "head" | "tail",
  source: string,
  raw: CatCommandFlags,
  timeoutGiven: boolean,
): Promise<Outcome> {
  const mode: SinkMode = name === "cat"
    ? { kind: "all" }
    : { kind: name, n: parseCount(raw.lines ?? "10") };
  const flags = parseCallFlags(raw);
  if (raw.follow) return runFollow(cli, source, flags, timeoutGiven ? flags.timeoutMs : 0);
  return runCat(cli, source, {
    mode,
    flags,
    task: raw.task === true,
    detach: raw.detach === true,
  });
}

function parseCount(text: string): number {
  if (!/^\d+$/.test(text)) {
    throw new UsageError(`Invalid -n "${text}": not a whole number`, {
      hint: "e.g. jn head -n 5 SOURCE",
    });
  }
  return Number(text);
}

/** The flags of cat/head/tail besides the shared ones. */
interface CatFlags {
  lines?: string;
  task?: boolean;
  detach?: boolean;
  follow?: boolean;
}

/** Options of {@linkcode runCat}. */
interface CatOptions {
  mode: SinkMode;
  flags: CallFlags;
  /** `--task`. */
  task: boolean;
  /** `--detach`. */
  detach: boolean;
}

/** Runs cat/head/tail on a source given as text. */
async function runCat(cli: Cli, sourceText: string, options: CatOptions): Promise<Outcome> {
  const { flags } = options;
  const { io } = cli;
  const target = await resolveTarget(sourceText, { cwd: io.cwd, env: io.env });
  const operation = target.operation;
  requireOperation(target, sourceText);
  // Syntax errors in --arg/--args are reported before any server starts.
  const args = collectArgs({
    query: target.queryArgs,
    args: flags.args,
    arg: flags.arg,
    defaults: target.defaults,
  });
  const given = [...target.queryArgs.map((a) => a.key), ...flags.arg.map((a) => a.split("=")[0])];
  if (flags.args !== undefined) given.push("--args");
  const argless = operation.kind === "list" || operation.kind === "resource" ||
    operation.kind === "task";
  if (argless && given.length > 0) {
    throw new UsageError(
      `Arguments are not used with ${operation.kind}=: ${given.join(", ")}`,
      {
        hint: operation.kind === "task"
          ? "the task already runs with the arguments it was started with"
          : "arguments go to tools (?tool=) and prompts (?prompt=)",
      },
    );
  }
  if ((options.task || options.detach) && operation.kind !== "tool") {
    throw new UsageError(
      `${options.detach ? "--detach" : "--task"} applies to tool calls only`,
      { hint: "name a tool: SOURCE?tool=NAME or @server/tool" },
    );
  }
  if (options.detach) requireDetachable(target);
  requireResumable(target);
  const sink = new RecordSink(io.stdout, options.mode);
  return await withConnection(cli, target, flags, async (conn) => {
    const what = operation.kind === "tool"
      ? operation.name
      : operation.kind === "task"
      ? operation.tool ?? "task"
      : operation.kind;
    const progress = new ProgressReporter(io, `${target.name} ${what}`, {
      lines: flags.progress,
      quiet: cli.quiet,
    });
    let result;
    try {
      result = await cat(conn, {
        args,
        json: flags.json,
        allowUnknown: flags.allowUnknown,
        onProgress: (update) => progress.update(update),
        task: options.task,
        detach: options.detach,
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
  flags: CallFlags,
  durationMs: number,
): Promise<Outcome> {
  const { io } = cli;
  const target = await resolveTarget(sourceText, { cwd: io.cwd, env: io.env });
  requireOperation(target, sourceText);
  followTarget(target); // a usage error before any server starts
  const given = [...target.queryArgs.map((a) => a.key), ...flags.arg.map((a) => a.split("=")[0])];
  if (flags.args !== undefined) given.push("--args");
  if (given.length > 0) {
    throw new UsageError(`Arguments are not used with --follow: ${given.join(", ")}`, {
      hint: "--follow reads a resource (?resource=URI) or a list (?list=…)",
    });
  }
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
