/**
 * The downstream face of the proxy: an SDK `Server` (the low-level one: the
 * proxy registers no tools of its own, it answers every method by passing
 * it on) whose handlers route each host request through dispatch.ts to the
 * hub's sources, for either protocol era.
 *
 * Guarantees: a host's progress token gets the source's progress of that
 * request, re-addressed to the token; a host's cancellation aborts the
 * source's request; a source's request to the host during a host request
 * goes with that request (2025: a related server→client request; 2026-07-28:
 * an `input_required` round through the bridge), tracked with this instance
 * as its connection (hub.ts ties a question to one connection's requests); at most
 * {@linkcode MAX_IN_FLIGHT} host requests are served at once, the rest
 * refused (and downstream.ts bounds the notifications waiting for the host);
 * a host request cancelled, or whose connection closed (the SDK aborts its
 * signal then), stops counting as in flight at once, whatever the source
 * still does for it (a shared listing the hub may finish for a later one).
 *
 * @module
 */

import { Server } from "@modelcontextprotocol/server";
import type { JsonObject } from "../types.ts";
import { InputBridge } from "./bridge.ts";
import {
  type CallContext,
  callTool,
  firstAnswer,
  forward,
  list,
  listTools,
  promptRoute,
  resourceSources,
} from "./dispatch.ts";
import { ProtocolErrorCode, rpcError } from "./errors.ts";
import { AS_IS, LEVELS, NO_LIMIT } from "./downstream.ts";
import type { Hub } from "./hub.ts";
import type { ServedIdentity } from "./identity.ts";
import { untiedWarning } from "./tie.ts";

/** The most host requests served at once by one downstream session. */
export const MAX_IN_FLIGHT = 256;

// deno-lint-ignore no-explicit-any
type SdkContext = any;
type Handler = (params: JsonObject, ctx: CallContext) => Promise<JsonObject>;

/** What one downstream session shares among its server instances. */
export interface SessionShared {
  hub: Hub;
  bridge: InputBridge;
  /** The log level the host set (2025 era). */
  level?: string;
  inFlight: number;
  onWarning?: (message: string) => void;
  /** Checked before each host request is served; what it throws refuses the request. */
  gate?: () => void | Promise<void>;
  /** The notification that tells a host a server's `method` was declined (ProxyOptions). */
  untiedNote: (method: string) => { method: string; params: JsonObject };
}

/** A new downstream session's shared state. */
export function sessionShared(
  hub: Hub,
  onWarning?: (message: string) => void,
  gate?: () => void | Promise<void>,
  untiedNote = untiedWarning,
): SessionShared {
  return { hub, bridge: new InputBridge(), inFlight: 0, onWarning, gate, untiedNote };
}

/** A server instance for one downstream connection (or one request, 2026-07-28 over HTTP). */
export function proxyServer(shared: SessionShared, identity: ServedIdentity): Server {
  const hub = shared.hub;
  const server = new Server(identity.serverInfo, {
    capabilities: identity.capabilities,
    ...(identity.instructions ? { instructions: identity.instructions } : {}),
  });
  const modern = () => (server.getNegotiatedProtocolVersion() ?? "") >= "2026";
  server.onerror = (error) => shared.onWarning?.(`host: ${error.message}`);

  const register = (method: string, handler: Handler, options: { input?: boolean } = {}) => {
    try {
      server.setRequestHandler(method as never, serve(handler, options) as never);
    } catch { /* a method this SDK does not know: the fallback passes it on */ }
  };

  const serve =
    (handler: Handler, options: { input?: boolean }) =>
    async (request: { params?: JsonObject }, sdk: SdkContext): Promise<JsonObject> => {
      if (shared.inFlight >= MAX_IN_FLIGHT) {
        throw rpcError(
          ProtocolErrorCode.InternalError,
          `jn serve: too many requests in flight (at most ${MAX_IN_FLIGHT}); try again`,
        );
      }
      shared.inFlight++;
      try {
        // A request cancelled, or whose connection closed, is over at once: the work it
        // started (a listing the hub shares) may go on without it.
        return await untilAborted(work(request, sdk, handler, options), sdk.mcpReq.signal);
      } finally {
        shared.inFlight--;
      }
    };

  const work = async (
    request: { params?: JsonObject },
    sdk: SdkContext,
    handler: Handler,
    options: { input?: boolean },
  ): Promise<JsonObject> => {
    await shared.gate?.();
    const params = request.params ?? {};
    const state = sdk.mcpReq.requestState?.();
    const ctx = callContext(sdk, typeof state === "string" ? state : undefined);
    if (!options.input || !modern()) return await handler(params, ctx);
    const round = {
      requestState: ctx.retry?.requestState,
      inputResponses: ctx.retry?.inputResponses as Record<string, unknown> | undefined,
      signal: ctx.signal,
    };
    // The bridge's own state goes no further; a server's own state goes back to it.
    if (InputBridge.owns(round.requestState)) ctx.retry = undefined;
    return await shared.bridge.serve(round, (signal, ask) =>
      handler(params, {
        ...ctx,
        signal,
        track: (source) => hub.begin({ source, connection: server, ask, declined: ctx.declined }),
      }));
  };

  const callContext = (sdk: SdkContext, requestState: string | undefined): CallContext => {
    const token = sdk.mcpReq._meta?.progressToken;
    const envelope = sdk.mcpReq.envelope as JsonObject | undefined;
    const level = envelope?.["io.modelcontextprotocol/logLevel"];
    const inputResponses = sdk.mcpReq.inputResponses;
    const declined = (method: string) =>
      void sdk.mcpReq.notify(shared.untiedNote(method)).catch(() => {});
    return {
      signal: sdk.mcpReq.signal,
      wantsProgress: token !== undefined,
      progress: (params) =>
        void sdk.mcpReq.notify({
          method: "notifications/progress",
          params: { ...params, progressToken: token },
        })
          .catch(() => {}),
      retry: inputResponses !== undefined || requestState !== undefined
        ? { inputResponses, requestState }
        : undefined,
      logLevel: typeof level === "string" ? level : shared.level,
      declined,
      track: (source) =>
        hub.begin({
          source,
          connection: server,
          declined,
          ask: (method, params, signal) => {
            if (modern()) {
              return Promise.reject(
                new Error(
                  "the host speaks 2026-07-28: it cannot be asked outside a tool call, prompt or read",
                ),
              );
            }
            return sdk.mcpReq.send({ method, params }, AS_IS, { signal, timeout: NO_LIMIT });
          },
        }),
    };
  };

  const caps = identity.capabilities;
  const single = () => hub.live()[0];
  if (caps.tools) {
    register("tools/list", () => listTools(hub));
    register("tools/call", (params, ctx) => callTool(hub, params, ctx), { input: true });
  }
  if (caps.prompts) {
    register("prompts/list", (params, ctx) => list(hub, "prompts/list", "prompts", params, ctx));
    register("prompts/get", async (params, ctx) => {
      const route = await promptRoute(hub, params.name, ctx);
      if (!route) throw rpcError(ProtocolErrorCode.InvalidParams, `Unknown prompt: ${params.name}`);
      return await forward(route.entry, "prompts/get", { ...params, name: route.name }, ctx);
    }, { input: true });
  }
  if (caps.resources) {
    register(
      "resources/list",
      (params, ctx) => list(hub, "resources/list", "resources", params, ctx),
    );
    register(
      "resources/templates/list",
      (params, ctx) => list(hub, "resources/templates/list", "resourceTemplates", params, ctx),
    );
    register("resources/read", async (params, ctx) => {
      const entries = await resourceSources(hub, params.uri, ctx);
      return await firstAnswer(entries, (entry) => forward(entry, "resources/read", params, ctx));
    }, { input: true });
    const subscription = (add: boolean): Handler => async (params, ctx) => {
      const [entry] = await resourceSources(hub, params.uri, ctx);
      if (!entry) throw rpcError(ProtocolErrorCode.InvalidParams, `No source serves ${params.uri}`);
      if (add) entry.resources.add(params.uri as string);
      else entry.resources.delete(params.uri as string);
      await hub.watch(entry).catch((error) => {
        throw rpcError(ProtocolErrorCode.InternalError, (error as Error).message);
      });
      return {};
    };
    register("resources/subscribe", subscription(true));
    register("resources/unsubscribe", subscription(false));
  }
  if (caps.completions) {
    register("completion/complete", async (params, ctx) => {
      const ref = (params.ref ?? {}) as JsonObject;
      if (ref.type === "ref/prompt") {
        const route = await promptRoute(hub, ref.name, ctx);
        if (!route) throw rpcError(ProtocolErrorCode.InvalidParams, `Unknown prompt: ${ref.name}`);
        return await forward(route.entry, "completion/complete", {
          ...params,
          ref: { ...ref, name: route.name },
        }, ctx);
      }
      const entries = await resourceSources(hub, ref.uri, ctx);
      return await firstAnswer(
        entries,
        (entry) => forward(entry, "completion/complete", params, ctx),
      );
    });
  }
  register("logging/setLevel", async (params, ctx) => {
    if (typeof params.level === "string" && LEVELS.includes(params.level)) {
      shared.level = params.level;
    }
    await Promise.all(
      hub.live().map((entry) => {
        const server = entry.upstream!.server;
        if (!server.capabilities.logging || server.era === "modern") return;
        return forward(entry, "logging/setLevel", params, ctx).catch(() => {});
      }),
    );
    return {};
  });
  const task = (method: string): Handler => async (params, ctx) => {
    const source = typeof params.taskId === "string" ? hub.tasks.get(params.taskId) : undefined;
    const entry = source !== undefined ? hub.entry(source) : hub.namespaced ? undefined : single();
    if (!entry) throw rpcError(ProtocolErrorCode.InvalidParams, `Unknown task: ${params.taskId}`);
    return await forward(entry, method, params, ctx);
  };
  for (const method of ["tasks/get", "tasks/result", "tasks/cancel"]) {
    register(method, task(method));
  }
  register("tasks/list", (params, ctx) => list(hub, "tasks/list", "tasks", params, ctx));
  server.fallbackRequestHandler = (request, sdk) => {
    const entry = hub.namespaced ? undefined : single();
    if (!entry) {
      return Promise.reject(rpcError(ProtocolErrorCode.MethodNotFound, "Method not found"));
    }
    return serve((params, ctx) => forward(entry, request.method, params, ctx), {})(
      request as { params?: JsonObject },
      sdk,
    ) as never;
  };
  server.setNotificationHandler("notifications/roots/list_changed", () => {
    for (const entry of hub.live()) {
      void entry.upstream!.notify("notifications/roots/list_changed").catch(() => {});
    }
  });
  return server;
}

/**
 * `work`, or its abort signal's reason once that aborts (whichever comes
 * first); what `work` does afterwards is no one's concern (its failure too).
 */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  work.catch(() => {});
  if (signal.aborted) return Promise.reject(signal.reason);
  let stop!: () => void;
  const aborted = new Promise<never>((_, reject) => {
    stop = () => reject(signal.reason);
    signal.addEventListener("abort", stop, { once: true });
  });
  return Promise.race([work, aborted]).finally(() => signal.removeEventListener("abort", stop));
}
