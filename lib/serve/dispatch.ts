/**
 * What the proxy answers the host's requests with: each one routed to the
 * source that answers it and passed through as it came, under the server's
 * own names, its answer passed back.
 *
 * Guarantees: with one source, lists (other than tools) go through as they
 * are, pagination included; with several, each source's pages are merged
 * into one namespaced page (at most {@linkcode MAX_PAGES} pages a source: a
 * server cannot keep the proxy listing). Tools pass the filter: a withheld
 * tool is refused with its reason, an unknown one with "Unknown tool"
 * (JSON-RPC -32602), neither reaching a server; failures reach the host as
 * errors.ts says; each tool call is reported once (`onCall`), argument names only.
 *
 * @module
 */

import type { JsonObject, ToolInfo } from "../types.ts";
import { hostError, ProtocolErrorCode, rpcError } from "./errors.ts";
import type { Entry, Hub } from "./hub.ts";
import type { CallRecord } from "./types.ts";

/** The most pages of one list the proxy reads from a source when it merges. */
export const MAX_PAGES = 100;

/** A host request as the dispatch sees it. */
export interface CallContext {
  /** Aborted when the host cancels the request (or the session ends). */
  signal: AbortSignal;
  /** The host asked for progress of this request. */
  wantsProgress: boolean;
  /** Sends the host a progress notification of this request (its token is added). */
  progress(params: JsonObject): void;
  /** Retry material of the 2026-07-28 era (multi round trip), to pass on. */
  retry?: { inputResponses?: unknown; requestState?: string };
  /** The log level the host asked for in this request (2026-07-28). */
  logLevel?: string;
  /** Marks the request in flight on a source; returns its end. */
  track(source: string): () => void;
  /** Tells the host, related to this request, that a server's `method` was declined (hub.ts). */
  declined(method: string): void;
}

const LEVEL_KEY = "io.modelcontextprotocol/logLevel";

/** The params to send on: progress token and envelope keys of the host's own removed, retry material back. */
function outbound(params: JsonObject | undefined, ctx: CallContext, modern: boolean): JsonObject {
  const out: JsonObject = { ...params };
  const meta = params?._meta as JsonObject | undefined;
  const kept: JsonObject = {};
  if (meta && typeof meta === "object") {
    for (const [key, value] of Object.entries(meta)) {
      if (key !== "progressToken" && !key.startsWith("io.modelcontextprotocol/")) kept[key] = value;
    }
  }
  if (modern && ctx.logLevel) kept[LEVEL_KEY] = ctx.logLevel;
  if (Object.keys(kept).length > 0) out._meta = kept;
  else delete out._meta;
  if (ctx.retry?.inputResponses !== undefined) out.inputResponses = ctx.retry.inputResponses;
  if (ctx.retry?.requestState !== undefined) out.requestState = ctx.retry.requestState;
  return out;
}

/** Passes one request to one source. */
export async function forward(
  entry: Entry,
  method: string,
  params: JsonObject | undefined,
  ctx: CallContext,
): Promise<JsonObject> {
  const upstream = entry.upstream;
  if (!upstream) {
    throw rpcError(
      ProtocolErrorCode.InternalError,
      `The source "${entry.name}" is not running: ${entry.failure}`,
    );
  }
  const end = ctx.track(entry.name);
  try {
    return await upstream.forward(method, outbound(params, ctx, upstream.server.era === "modern"), {
      signal: ctx.signal,
      onProgress: ctx.wantsProgress ? (progress) => ctx.progress(progress) : undefined,
      inputRequired: true,
    });
  } catch (error) {
    throw hostError(error);
  } finally {
    end();
  }
}

/** `tools/list`: every source's tools after the filter, namespaced. */
export async function listTools(hub: Hub): Promise<JsonObject> {
  const lists = await Promise.all(
    hub.live().map(async (entry) => {
      try {
        return (await hub.offer(entry)).shown;
      } catch (error) {
        if (!hub.namespaced) throw hostError(error);
        hub.events.onWarning?.(`tools/list of "${entry.name}" failed: ${(error as Error).message}`);
        return [] as ToolInfo[];
      }
    }),
  );
  return { tools: lists.flat() };
}

/** `tools/call`: routed by the offered name, refused when withheld or unknown. */
export async function callTool(
  hub: Hub,
  params: JsonObject,
  ctx: CallContext,
): Promise<JsonObject> {
  const shown = params.name;
  if (typeof shown !== "string") {
    throw rpcError(ProtocolErrorCode.InvalidParams, "tools/call needs a tool name");
  }
  let route = hub.tools.route(shown);
  if (!route && hub.tools.withheld(shown) === undefined) {
    await listTools(hub).catch(() => {});
    route = hub.tools.route(shown);
  }
  const args = (params.arguments ?? {}) as JsonObject;
  const started = Date.now();
  const onCall = hub.events.onCall;
  const report = (source: string, tool: string, outcome: CallRecord["outcome"]) =>
    onCall?.({
      time: new Date(started).toISOString(),
      source,
      tool,
      arguments: args && typeof args === "object" ? Object.keys(args) : [],
      outcome,
      duration_ms: Date.now() - started,
    });
  if (!route) {
    const reason = hub.tools.withheld(shown);
    report(hub.namespaced ? "" : hub.all()[0]?.name ?? "", shown, "refused");
    throw rpcError(
      ProtocolErrorCode.InvalidParams,
      reason === undefined
        ? `Unknown tool: ${shown}`
        : `The tool "${shown}" is withheld by jn: ${reason}`,
    );
  }
  // An alias's filled-in arguments are the profile's: a host that sends one is refused.
  const fixed = Object.keys(route.defaults ?? {}).filter((key) => Object.hasOwn(args, key));
  if (fixed.length > 0) {
    report(route.source, route.name, "refused");
    throw rpcError(
      ProtocolErrorCode.InvalidParams,
      `The tool "${shown}" takes no ${fixed.join(", ")}: its profile fixes ${
        fixed.length === 1 ? "it" : "them"
      }`,
    );
  }
  const entry = hub.entry(route.source)!;
  try {
    const result = await forward(entry, "tools/call", {
      ...params,
      name: route.name,
      arguments: route.defaults ? { ...args, ...route.defaults } : args,
    }, ctx);
    const taskId = (result.task as JsonObject | undefined)?.taskId;
    if (typeof taskId === "string") {
      hub.tasks.set(taskId, entry.name);
      // The SDK's server checks every tools/call result as a CallToolResult, which a
      // CreateTaskResult passes only with `content` (docs/serve.md, "Protocol gaps").
      if (result.content === undefined) result.content = [];
    }
    report(entry.name, route.name, result.isError === true ? "tool_error" : "ok");
    return result;
  } catch (error) {
    report(entry.name, route.name, ctx.signal.aborted ? "cancelled" : "error");
    throw error;
  }
}

/** Every page of one list of one source (for merging). */
async function allPages(
  entry: Entry,
  method: string,
  key: string,
  ctx: CallContext,
): Promise<unknown[]> {
  const items: unknown[] = [];
  let cursor: unknown;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await forward(entry, method, typeof cursor === "string" ? { cursor } : {}, ctx);
    if (Array.isArray(result[key])) items.push(...result[key]);
    cursor = result.nextCursor;
    if (typeof cursor !== "string" || cursor === "") break;
  }
  return items;
}

/** A list of every source that has it, merged (one source: passed through as it is). */
export async function list(
  hub: Hub,
  method: "prompts/list" | "resources/list" | "resources/templates/list" | "tasks/list",
  key: string,
  params: JsonObject | undefined,
  ctx: CallContext,
): Promise<JsonObject> {
  const capability = method.split("/")[0];
  const live = hub.live().filter((entry) => entry.upstream!.server.capabilities[capability]);
  if (!hub.namespaced) {
    if (live.length === 0) return { [key]: [] };
    const result = await forward(live[0], method, params, ctx);
    if (method === "prompts/list" && Array.isArray(result.prompts)) {
      hub.prompts.set(live[0].name, result.prompts as { name: string }[]);
    }
    return result;
  }
  const lists = await Promise.all(live.map(async (entry) => {
    try {
      const items = await allPages(entry, method, key, ctx);
      if (method === "prompts/list") {
        return hub.prompts.set(entry.name, items as { name: string }[]);
      }
      if (method === "resources/list") hub.resources.setResources(entry.name, items);
      if (method === "resources/templates/list") hub.resources.setTemplates(entry.name, items);
      if (method === "tasks/list") {
        for (const task of items) {
          const id = (task as JsonObject)?.taskId;
          if (typeof id === "string") hub.tasks.set(id, entry.name);
        }
      }
      return items;
    } catch (error) {
      hub.events.onWarning?.(`${method} of "${entry.name}" failed: ${(error as Error).message}`);
      // Known to claim nothing (until its list changes): a read does not list it again.
      if (method === "resources/list") hub.resources.setResources(entry.name, []);
      if (method === "resources/templates/list") hub.resources.setTemplates(entry.name, []);
      return [];
    }
  }));
  return { [key]: lists.flat() };
}

/** The source of a prompt by its offered name (listing prompts first if need be). */
export async function promptRoute(hub: Hub, shown: unknown, ctx: CallContext) {
  if (typeof shown !== "string") {
    throw rpcError(ProtocolErrorCode.InvalidParams, "a prompt name is needed");
  }
  if (!hub.namespaced) {
    const entry = hub.live()[0];
    return entry && { entry, name: shown };
  }
  let route = hub.prompts.route(shown);
  if (!route) {
    await list(hub, "prompts/list", "prompts", undefined, ctx);
    route = hub.prompts.route(shown);
  }
  return route && { entry: hub.entry(route.source)!, name: route.name };
}

/**
 * The sources to ask about a resource URI, in order: the one that answers
 * it when that can be told (every source's resources and templates listed
 * first, once, so that every claim is known), otherwise every source. A
 * URI that several sources claim is refused, naming them: no source may
 * answer for another's resource (catalog.ts `ResourceRoutes`).
 */
export async function resourceSources(hub: Hub, uri: unknown, ctx: CallContext): Promise<Entry[]> {
  if (typeof uri !== "string") {
    throw rpcError(ProtocolErrorCode.InvalidParams, "a resource URI is needed");
  }
  const live = hub.live();
  if (live.length <= 1) return live;
  const serving = live.filter((item) => item.upstream!.server.capabilities.resources);
  if (!hub.resources.knows(serving.map((entry) => entry.name))) {
    await Promise.all([
      list(hub, "resources/list", "resources", undefined, ctx),
      list(hub, "resources/templates/list", "resourceTemplates", undefined, ctx),
    ]);
  }
  const conflict = hub.resources.conflict(uri);
  if (conflict !== undefined) {
    hub.events.onWarning?.(conflict);
    throw rpcError(ProtocolErrorCode.InvalidParams, conflict, { uri });
  }
  const source = hub.resources.route(uri);
  const entry = source === undefined ? undefined : hub.entry(source);
  return entry ? [entry] : serving;
}

/** Asks each source in turn until one answers; the first failure if none does. */
export async function firstAnswer(
  entries: Entry[],
  ask: (entry: Entry) => Promise<JsonObject>,
): Promise<JsonObject> {
  let first: unknown;
  for (const entry of entries) {
    try {
      return await ask(entry);
    } catch (error) {
      first ??= error;
    }
  }
  throw first ?? rpcError(ProtocolErrorCode.InvalidParams, "No source serves this resource");
}
