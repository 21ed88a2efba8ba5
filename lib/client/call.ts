/**
 * Calling a tool the way jn does: the tool is found (a missing one is a
 * usage error naming the near misses), the arguments are converted to the
 * types its `inputSchema` declares and validated before anything is sent
 * (ArgumentError; the server is not called; an argument the schema does
 * not declare is one too, unless `allowUnknown`: lib/args/declared.ts),
 * progress is always asked for (each notification also resets the
 * request's timeout), and the result is
 * checked against the profile's `output_format` (`events.onOutputFormat`).
 * A tool that requires a task (or allows one, with `task`) is called as one
 * (lib/client/task.ts). A tool that answers `isError` is a result, not an
 * exception. A call refused with "URL elicitation required" (-32042) shows
 * the URLs through the elicitation handler and is retried once when the user
 * went through them all (url_required.ts); otherwise its error names the URLs.
 *
 * @module
 */

import { visibleLine, visibleNames } from "../output/visible.ts";
import { closest } from "../text/suggest.ts";
import { type ArgPairs, typedArgs } from "../args/collect.ts";
import { DriftError, JnError, ProtocolError, UsageError } from "../errors.ts";
import { profileFilter } from "../profile/tool_filter.ts";
import type { Profile } from "../profile/types.ts";
import { offerUrls, refusedUrlsNotice, requiredUrls, urlRequiredError } from "./url_required.ts";
import type { ProgressUpdate, TaskInfo, ToolCallResult, ToolInfo } from "../types.ts";
import type { Connection } from "./connection.ts";
import { callAsTask, wantsTask } from "./task.ts";

/** Options of {@linkcode call}. */
export interface CallOptions {
  /** Progress notifications of the call. */
  onProgress?: (update: ProgressUpdate) => void;
  /**
   * Send arguments the tool's `inputSchema` does not declare. By default such
   * an argument is an ArgumentError naming the closest declared one, unless
   * the schema allows more (README "Arguments").
   */
  allowUnknown?: boolean;
  /** Call as a task where the tool allows one (`--task`); one that requires it always is. */
  task?: boolean;
  /** The status of a task, each time it changes (lib/client/task.ts). */
  onTaskStatus?: (task: TaskInfo) => void;
}

/**
 * Calls the server's tool `tool` with `args`: JSON values as a program holds
 * them, or pairs from a URI query and flags (lib/args/collect.ts) whose
 * strings are converted by the schema.
 *
 * @example
 * ```ts
 * import { call, open } from "@jn/jn";
 *
 * await using conn = await open("@demo", { cwd: Deno.cwd(), env: Deno.env.toObject() });
 * const result = await call(conn, "add", { a: 2, b: 40 });
 * console.log(result.structuredContent); // { sum: 42 }
 * ```
 */
export async function call(
  conn: Connection,
  tool: string,
  args: ArgPairs | Record<string, unknown> = {},
  options: CallOptions = {},
): Promise<ToolCallResult> {
  try {
    const { info, prepared } = await prepareCall(conn, tool, args, options.allowUnknown);
    const onProgress = options.onProgress ?? (() => {});
    const result = wantsTask(conn, info, options.task === true)
      ? await callAsTask(conn, tool, prepared, { onStatus: options.onTaskStatus })
      : await callOrOpenUrls(conn, tool, prepared, onProgress);
    // The behavioural check applies to profiles only: no profile, no drift module.
    const drift = conn.target.profile &&
      (await import("../drift/check.ts")).outputFormatDrift(conn.target.profile, {
        asked: askedName(conn, tool),
        tool,
        result,
      }, conn.options);
    if (drift) await conn.options.events?.onOutputFormat?.(drift);
    return result;
  } catch (error) {
    throw conn.explain(error);
  }
}

/** The tool `tool` of the server, and `args` converted and validated for it. */
export async function prepareCall(
  conn: Connection,
  tool: string,
  args: ArgPairs | Record<string, unknown>,
  allowUnknown?: boolean,
): Promise<{ info: ToolInfo; prepared: Record<string, unknown> }> {
  const info = await connectionTool(conn, tool);
  return { info, prepared: await prepareToolArguments(info, typedArgs(args), allowUnknown) };
}

/**
 * The server's tool `tool` (its name on the server) on a connection:
 * {@linkcode findTool} with what the connection knows (the profile's tools
 * and its curation, the tools the session left out, whether it can sample).
 * `options.asked` is the name the caller used (a profile tool's name that
 * maps to `tool`); by default the one the connection's source named, else
 * `tool`. The profile's `allow_tools`/`deny_tools` judge that name.
 */
export async function connectionTool(
  conn: Connection,
  tool: string,
  options: { asked?: string } = {},
): Promise<ToolInfo> {
  return findTool(await conn.session.listTools(), tool, conn.target.name, {
    sampling: conn.options.sample !== undefined || conn.options.samplingCommand !== undefined ||
      conn.target.samplingCommand !== undefined,
    aliases: profileToolNames(conn),
    leftOut: conn.session.leftOutTools?.(),
    profile: conn.target.profile,
    asked: options.asked ?? askedName(conn, tool),
    allows: profileFilter(conn.target.profile).allows,
  });
}

/** The call; after a -32042 refusal, the URLs offered and the call retried once if all were opened. */
async function callOrOpenUrls(
  conn: Connection,
  tool: string,
  args: Record<string, unknown>,
  onProgress: (update: ProgressUpdate) => void,
): Promise<ToolCallResult> {
  try {
    return await conn.session.callTool(tool, args, { onProgress });
  } catch (error) {
    const required = requiredUrls(error);
    if (required === undefined) throw withSamplingHint(error);
    const { urls, refused } = required;
    // When none is left, the error says why; otherwise a notice for those left out.
    if (refused.length > 0 && urls.length > 0) {
      await conn.options.events?.onNotice?.(refusedUrlsNotice(refused));
    }
    if (await offerUrls(urls, conn.options.elicit)) {
      return await conn.session.callTool(tool, args, { onProgress });
    }
    throw urlRequiredError(
      error as ProtocolError,
      required,
      `tools/call "${tool}"`,
      conn.target.name,
    );
  }
}

/**
 * A 2026-07-28 server that needs an LLM and finds no sampling capability
 * refuses the call (-32021, naming `sampling/createMessage`): say how to
 * give it one.
 */
function withSamplingHint(error: unknown): unknown {
  if (
    error instanceof JnError && error.hint === undefined &&
    /sampling\/createMessage/.test(error.message) && /capabilit/.test(error.message)
  ) {
    error.hint = "the server needs an LLM: answer with --sampling-command CMD " +
      "(or the profile's sampling_command)";
  }
  return error;
}

/** The name the caller used for `tool`: the profile tool a source named, or the tool itself. */
function askedName(conn: Connection, tool: string): string {
  const { source, operation } = conn.target;
  return source.operation.kind === "tool" && operation.kind === "tool" && operation.name === tool
    ? source.operation.name
    : tool;
}

/**
 * The named tool, or a usage error naming the closest of the server's tools
 * and of `options.aliases` (a profile's own tool names, which map to server
 * tools), or listing the server's tools. A tool of `options.profile` that
 * the server no longer offers is schema drift (DriftError, exit 3) with the
 * fix, not a typo. A name `options.allows` refuses (the profile's curation
 * judges `options.asked`, the name the caller used) is not found, and only
 * names it allows are suggested.
 */
export function findTool(
  tools: ToolInfo[],
  name: string,
  server: string,
  options: {
    sampling?: boolean;
    aliases?: readonly string[];
    leftOut?: ReadonlyMap<string, string>;
    profile?: Profile;
    asked?: string;
    allows?: (name: string) => boolean;
  } = {},
): ToolInfo {
  const allows = options.allows ?? (() => true);
  const missing = (asked: string) =>
    toolNotFound(tools.filter((t) => allows(t.name)), asked, server, {
      sampling: options.sampling,
      aliases: options.aliases?.filter(allows),
    });
  if (!allows(options.asked ?? name)) return missing(options.asked ?? name);
  const tool = tools.find((candidate) => candidate.name === name);
  if (tool) return tool;
  const problem = options.leftOut?.get(name);
  if (problem !== undefined) {
    throw new ProtocolError(
      `Tool "${name}" of server "${server}" cannot be called: its definition breaks MCP's schema (${problem})`,
      { hint: "the server must fix the tool's definition; its other tools work" },
    );
  }
  const profile = options.profile;
  // Gone only if its server tool is: a profile name of a tool the server still has is no drift.
  const dropped = profile?.tools.find((t) =>
    (t.serverTool === name || t.name === name) && !tools.some((c) => c.name === t.serverTool)
  );
  if (profile && dropped) {
    const known = dropped.name === dropped.serverTool
      ? `"${dropped.name}"`
      : `"${dropped.name}" (the server's "${dropped.serverTool}")`;
    throw new DriftError(
      `Tool ${known} of @${profile.name} is gone: the server no longer offers it (schema drift since the profile was written)`,
      {
        path: dropped.file?.startsWith("/") ? dropped.file : profile.metaFile,
        hint: `jn profile diff @${profile.name} shows what changed; ` +
          `jn profile update @${profile.name} rewrites the profile to the server's tools`,
      },
    );
  }
  return missing(name);
}

/**
 * Throws the usage error of a tool name not found among `tools` and
 * `options.aliases`: the closest of them as a did-you-mean, else the list.
 */
export function toolNotFound(
  tools: ToolInfo[],
  name: string,
  server: string,
  options: { sampling?: boolean; aliases?: readonly string[] },
): never {
  const known = [...new Set([...(options.aliases ?? []), ...tools.map((t) => t.name)])];
  const listed = [...new Set([...tools.map((t) => t.name), ...(options.aliases ?? [])])];
  const near = known.filter((n) => n.toLowerCase().includes(name.toLowerCase()));
  const typo = closest(name, known);
  if (typo !== undefined && !near.includes(typo)) near.unshift(typo);
  throw new UsageError(`Tool "${name}" not found on server "${server}"`, {
    hint: near.length > 0
      ? `did you mean ${near.map((n) => `"${visibleLine(n)}"`).join(" or ")}?`
      : listed.length > 0
      ? `its tools: ${visibleNames(listed)}${
        // Servers such as server-everything list some tools only to clients that can sample.
        options.sampling === false ? " (some servers list more with --sampling-command)" : ""}`
      : "the server offers no tools",
  });
}

/** The profile's own tool names of a connection's target (none for a naked URI). */
export function profileToolNames(conn: Connection): string[] {
  return conn.target.profile?.tools.map((t) => t.name) ?? [];
}

/**
 * Arguments for a call, converted and validated. The JSON Schema engine and
 * the converter are loaded only when a tool is actually called.
 */
async function prepareToolArguments(
  tool: ToolInfo,
  pairs: ArgPairs,
  allowUnknown = false,
): Promise<Record<string, unknown>> {
  const [{ schemaEngine }, { prepareArguments }] = await Promise.all([
    import("./schema_engine.ts"),
    import("../args/coerce.ts"),
  ]);
  return prepareArguments(pairs, {
    tool: tool.name,
    schema: tool.inputSchema,
    engine: await schemaEngine(),
    allowUnknown,
  });
}
