/**
 * `jn cat|head|tail SOURCE`: call a tool, read a resource, get a prompt or
 * list what a server offers, and write the records as NDJSON (SPEC §3).
 * Arguments are converted to the tool's declared types and validated before
 * the call; a tool that answers `isError` makes the run exit 1.
 *
 * @module
 */

import type { Command } from "commander";
import { UsageError } from "../../errors.ts";
import {
  promptMessageRecords,
  promptRecords,
  resourceContentRecords,
  resourceRecords,
  resourceTemplateRecords,
  toolRecords,
  toolResultRecords,
} from "../../output/records.ts";
import { redact } from "../../output/redact.ts";
import { RecordSink, type SinkMode } from "../record_sink.ts";
import { visible } from "../../output/visible.ts";
import type { Session } from "../../session/session.ts";
import type { ToolCallResult } from "../../types.ts";
import { resolveTarget, type Target } from "../../client/resolve.ts";
import { collectArgs } from "../../args/collect.ts";
import { parseSource } from "../../uri/parse.ts";
import { withSession } from "../connect.ts";
import { checkOutputFormat } from "../drift.ts";
import { sandboxHint, targetSandbox } from "../../client/sandbox.ts";
import { printErr } from "../io.ts";
import type { Ctx } from "../main.ts";
import {
  addArgumentOptions,
  addConnectionOptions,
  type CallFlags,
  parseCallFlags,
  type RawCallFlags,
} from "../options.ts";
import { ProgressReporter } from "../progress.ts";
import { findTool, prepareToolArguments } from "../tool_args.ts";

const DESCRIPTIONS = {
  cat: "call a tool, read a resource, get a prompt or list (?list=) → NDJSON",
  head: "the first N records of cat (default 10)",
  tail: "the last N records of cat (default 10)",
} as const;

/** Registers `cat`, `head` and `tail`. */
export function registerCat(program: Command, ctx: Ctx): void {
  for (const name of ["cat", "head", "tail"] as const) {
    const command = program.command(name)
      .description(DESCRIPTIONS[name])
      .argument("<source>", "mcp+LAUNCHER://… URI or @profile reference");
    if (name !== "cat") command.option("-n, --lines <N>", "how many records", "10");
    command.option(
      "--json",
      "emit the payload (structured content or parsed JSON text) instead of the envelope",
    );
    addArgumentOptions(command);
    addConnectionOptions(command);
    command.action(async (source: string, raw: RawCallFlags & { lines?: string }) => {
      const mode: SinkMode = name === "cat"
        ? { kind: "all" }
        : { kind: name, n: parseCount(raw.lines ?? "10") };
      await runCat(ctx, source, { mode, flags: parseCallFlags(raw) });
    });
  }
}

function parseCount(text: string): number {
  if (!/^\d+$/.test(text)) {
    throw new UsageError(`Invalid -n "${text}": not a whole number`, {
      hint: "e.g. jn head -n 5 SOURCE",
    });
  }
  return Number(text);
}

/** Options of {@linkcode runCat}. */
export interface CatOptions {
  mode: SinkMode;
  flags: CallFlags;
}

/** Runs cat/head/tail on a source given as text. */
export async function runCat(ctx: Ctx, sourceText: string, options: CatOptions): Promise<void> {
  const { flags } = options;
  const source = parseSource(sourceText);
  const target = await resolveTarget(source, { cwd: ctx.io.cwd, env: ctx.io.env });
  const operation = target.operation;
  if (operation.kind === "none") {
    throw new UsageError(
      `Nothing to read from "${sourceText}": name a tool, resource, prompt or list`,
      {
        hint:
          "add ?tool=NAME, ?resource=URI, ?prompt=NAME or ?list=tools (see 'jn inspect SOURCE')",
      },
    );
  }
  // Syntax errors in --arg/--args are reported before any server starts.
  const pairs = collectArgs({
    query: target.queryArgs,
    args: flags.args,
    arg: flags.arg,
    defaults: target.defaults,
  });
  const given = [...target.queryArgs.map((a) => a.key), ...flags.arg.map((a) => a.split("=")[0])];
  if (flags.args !== undefined) given.push("--args");
  if ((operation.kind === "list" || operation.kind === "resource") && given.length > 0) {
    throw new UsageError(
      `Arguments are not used with ${operation.kind}=: ${given.join(", ")}`,
      { hint: "arguments go to tools (?tool=) and prompts (?prompt=)" },
    );
  }
  const sink = new RecordSink(ctx.io.stdout, options.mode);
  await withSession(ctx, target, flags, async (session) => {
    for (const record of await fetchRecords(ctx, session, target, pairs, flags)) {
      await sink.write(record);
      if (sink.done) break;
    }
    await sink.end();
  });
}

async function fetchRecords(
  ctx: Ctx,
  session: Session,
  target: Target,
  pairs: ReturnType<typeof collectArgs>,
  flags: CallFlags,
): Promise<unknown[]> {
  const operation = target.operation;
  switch (operation.kind) {
    case "list":
      switch (operation.what) {
        case "tools":
          return toolRecords(await session.listTools());
        case "resources":
          return resourceRecords(await session.listResources());
        case "templates":
          return resourceTemplateRecords(await session.listResourceTemplates());
        case "prompts":
          return promptRecords(await session.listPrompts());
      }
      break;
    case "resource":
      return resourceContentRecords(await session.readResource(operation.uri));
    case "prompt": {
      const args = await preparePromptArguments(session, operation.name, pairs, target);
      return promptMessageRecords(operation.name, await session.getPrompt(operation.name, args));
    }
    case "tool": {
      const tools = await session.listTools();
      const tool = findTool(tools, operation.name, target.name);
      const args = await prepareToolArguments(tool, pairs);
      const result = await callWithProgress(ctx, session, target, operation.name, args, flags);
      await checkOutputFormat(ctx, target, flags, result);
      if (result.isError === true) {
        ctx.exitCode = 1;
        if (!ctx.quiet) {
          await printErr(
            ctx.io,
            redact(
              `jn: Tool "${operation.name}" answered with an error${firstText(result)}`,
              target.secrets,
            ),
          );
          const sandbox = targetSandbox(target, flags);
          if (sandbox) await printErr(ctx.io, `hint: ${sandboxHint(sandbox)}`);
        }
      }
      return toolResultRecords(operation.name, result, { json: flags.json });
    }
    case "none":
      break;
  }
  return [];
}

async function callWithProgress(
  ctx: Ctx,
  session: Session,
  target: Target,
  tool: string,
  args: Record<string, unknown>,
  flags: CallFlags,
): Promise<ToolCallResult> {
  const progress = new ProgressReporter(ctx.io, `${target.name} ${tool}`, {
    lines: flags.progress,
    quiet: ctx.quiet,
  });
  try {
    // Always ask for progress: each notification also resets the request timeout.
    return await session.callTool(tool, args, { onProgress: (update) => progress.update(update) });
  } finally {
    await progress.done();
  }
}

async function preparePromptArguments(
  session: Session,
  name: string,
  pairs: ReturnType<typeof collectArgs>,
  target: Target,
): Promise<Record<string, string>> {
  const prompts = await session.listPrompts();
  const prompt = prompts.find((candidate) => candidate.name === name);
  if (!prompt) {
    const known = prompts.map((p) => p.name).join(", ") || "none";
    throw new UsageError(`Prompt "${name}" not found on server "${target.name}"`, {
      hint: `its prompts: ${known}`,
    });
  }
  const args: Record<string, string> = {};
  for (const [key, value] of pairs) {
    args[key] = value.kind === "raw" ? value.values.join(",") : stringArg(value.value);
  }
  const missing = (prompt.arguments ?? []).filter((a) => a.required && !(a.name in args));
  if (missing.length > 0) {
    throw new UsageError(
      `Prompt "${name}" needs ${missing.map((a) => `"${a.name}"`).join(", ")}`,
      { hint: `e.g. ?prompt=${name}&${missing[0].name}=…` },
    );
  }
  return args;
}

function stringArg(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

function firstText(result: ToolCallResult): string {
  const text = result.content?.find((item) => item.type === "text")?.text;
  if (typeof text !== "string" || text.trim() === "") return "";
  const line = text.trim().split("\n")[0];
  return `: ${visible(line.length > 200 ? `${line.slice(0, 200)}…` : line, { oneLine: true })}`;
}
