/**
 * Serving Streamable HTTP on `/mcp`, both eras: a 2025 host gets a session
 * of its own (the SDK's sessionful Streamable HTTP transport, one
 * downstream session and so one connection to each source per host
 * session); 2026-07-28 requests, which have no sessions, are served by the
 * SDK's per-request entry and share one downstream session.
 *
 * Guarantees: every request passes http_guard.ts first (Host, Origin,
 * token); a body over {@linkcode MAX_BODY_BYTES} is refused (413) unread, a
 * body that is not JSON gets a JSON-RPC parse error (400), a POST that is not
 * `application/json` 415; a request for an unknown session is 404 (the host
 * starts a new one); past `maxSessions` 2025 sessions, a new one is 503; a downstream session without requests for `idleMs` is
 * ended with its servers; `close()` ends every session, stream and server
 * and the listener, so nothing keeps the process alive, and `done` resolves.
 *
 * @module
 */

import {
  createMcpHandler,
  isJsonContentType,
  isLegacyRequest,
  readRequestBody,
  WebStandardStreamableHTTPServerTransport,
} from "@modelcontextprotocol/server";
import { UsageError } from "../errors.ts";
import type { JsonObject } from "../types.ts";
import type { Downstream } from "./hub.ts";
import { isLoopbackHost, refusal, requestGuard } from "./http_guard.ts";
import { briefWarnings, type ProxyOptions, ProxySession } from "./session.ts";

/** The largest request body read (4 MiB, the SDK's default bound). */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** The endpoint's path. */
export const MCP_PATH = "/mcp";

/** Options of {@linkcode serveOverHttp}. */
export interface HttpServeOptions extends ProxyOptions {
  /** The address to bind (default `127.0.0.1`). */
  host?: string;
  /** The port (0: any free one). */
  port: number;
  /** The bearer token every request must carry (required for a non-loopback `host`). */
  token?: string;
  allowedHosts?: string[];
  allowedOrigins?: string[];
  /** A session idle this long (ms) is ended. */
  idleMs: number;
  /** The most 2025 sessions at once; more are refused (503). */
  maxSessions: number;
}

/** A running HTTP server. */
export interface HttpServing {
  /** `http://HOST:PORT/mcp`. */
  url: string;
  address: { hostname: string; port: number };
  /** Resolves once `close()` has ended everything. */
  done: Promise<void>;
  close(): Promise<void>;
}

interface LegacySession {
  proxy: ProxySession;
  transport: WebStandardStreamableHTTPServerTransport;
  lastUsed: number;
}

/** Serves the sources over Streamable HTTP. */
export async function serveOverHttp(options: HttpServeOptions): Promise<HttpServing> {
  const host = options.host ?? "127.0.0.1";
  if (!isLoopbackHost(host) && !options.token) {
    throw new UsageError(
      `Serving on "${host}" needs a bearer token: anyone who reaches it could call your servers`,
      {
        hint: "give a token (jn serve reads it from --http-token-env VAR), or bind 127.0.0.1",
      },
    );
  }
  const guard = await requestGuard({ ...options, host });
  const warn = briefWarnings(options.events.onWarning) ?? (() => {});
  const sessions = new Map<string, LegacySession>();
  let starting = 0;
  let modern: { proxy: ProxySession; lastUsed: number } | undefined;
  const modernProxy = () => {
    if (!modern) {
      const proxy = new ProxySession(options);
      proxy.hub.attach(listenDownstream(() => handler.notify));
      modern = { proxy, lastUsed: Date.now() };
    }
    modern.lastUsed = Date.now();
    return modern.proxy;
  };
  const handler = createMcpHandler(() => modernProxy().instance({ attach: false }), {
    legacy: "reject",
    onerror: (error) => warn(`host request: ${error.message}`),
  });

  const legacy = async (request: Request, body: unknown): Promise<Response> => {
    const id = request.headers.get("mcp-session-id");
    if (id !== null) {
      const session = sessions.get(id);
      if (!session) return refusal(404, "Session not found: start a new one (initialize)");
      session.lastUsed = Date.now();
      if (body !== undefined) session.proxy.peek(body);
      return await session.transport.handleRequest(
        request,
        body === undefined ? {} : { parsedBody: body },
      );
    }
    if ((body as JsonObject | undefined)?.method !== "initialize") {
      return refusal(400, "Bad Request: no session: a session starts with initialize");
    }
    if (sessions.size + starting >= options.maxSessions) {
      return refusal(503, "Service Unavailable: too many sessions; end one (DELETE) or try later");
    }
    const proxy = new ProxySession(options);
    proxy.peek(body);
    const session: LegacySession = {
      proxy,
      lastUsed: Date.now(),
      transport: new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => crypto.randomUUID(),
        onsessioninitialized: (sessionId) => void sessions.set(sessionId, session),
        onsessionclosed: (sessionId) => void endSession(sessionId),
      }),
    };
    starting++;
    try {
      const server = await proxy.instance();
      await server.connect(session.transport);
      // connect() took the transport's callbacks: the session's sources end with it too.
      const closed = session.transport.onclose;
      session.transport.onclose = () => {
        closed?.();
        void proxy.close();
      };
      const response = await session.transport.handleRequest(request, { parsedBody: body });
      // An initialize the transport refused leaves no session: its sources end now.
      if (session.transport.sessionId === undefined) await proxy.close();
      return response;
    } finally {
      starting--;
    }
  };

  const endSession = async (id: string) => {
    const session = sessions.get(id);
    if (!session) return;
    sessions.delete(id);
    await session.transport.close().catch(() => {});
    await session.proxy.close();
  };

  const serveRequest = async (request: Request): Promise<Response> => {
    const refused = await guard(request);
    if (refused) return refused;
    if (new URL(request.url).pathname !== MCP_PATH) {
      return refusal(404, `Not found: the endpoint is ${MCP_PATH}`);
    }
    let body: unknown;
    if (request.method === "POST") {
      if (!isJsonContentType(request.headers.get("content-type"))) {
        return refusal(415, "Unsupported Media Type: POST application/json");
      }
      const read = await readRequestBody(request, MAX_BODY_BYTES);
      if (read.tooLarge) return refusal(413, `Payload Too Large: at most ${MAX_BODY_BYTES} bytes`);
      try {
        body = JSON.parse(read.text);
      } catch {
        return Response.json({
          jsonrpc: "2.0",
          error: { code: -32700, message: "Parse error" },
          id: null,
        }, {
          status: 400,
        });
      }
    }
    if (await isLegacyRequest(request, body ?? null).catch(() => true)) {
      return await legacy(request, body);
    }
    modernProxy().peek(body);
    return await handler.fetch(request, { parsedBody: body });
  };

  const abort = new AbortController();
  let listening!: (address: { hostname: string; port: number }) => void;
  const bound = new Promise<{ hostname: string; port: number }>((resolve) => listening = resolve);
  const server = Deno.serve({
    hostname: host,
    port: options.port,
    signal: abort.signal,
    onListen: (address) => listening(address),
    onError: (error) => {
      warn(`HTTP request failed: ${(error as Error)?.message ?? error}`);
      return refusal(500, "Internal Server Error");
    },
  }, async (incoming, info) => {
    // Our own signal, ended when the exchange is (the request's own aborts on
    // every answer in Deno's legacy mode, and warns).
    const exchange = new AbortController();
    info.completed.finally(() => exchange.abort());
    const request = new Request(incoming.url, {
      method: incoming.method,
      headers: incoming.headers,
      body: incoming.body,
      signal: exchange.signal,
      duplex: "half",
    } as RequestInit);
    try {
      return await serveRequest(request);
    } catch (error) {
      warn(`HTTP request failed: ${(error as Error)?.message ?? error}`);
      return refusal(500, "Internal Server Error");
    }
  });
  const address = await bound;

  const reaper = setInterval(() => {
    const now = Date.now();
    for (const [id, session] of sessions) {
      if (now - session.lastUsed > options.idleMs && !session.proxy.busy) void endSession(id);
    }
    if (modern && now - modern.lastUsed > options.idleMs && !modern.proxy.busy) {
      const idle = modern;
      modern = undefined;
      void idle.proxy.close();
    }
  }, Math.max(1000, Math.min(options.idleMs / 2, 60_000)));
  Deno.unrefTimer(reaper);

  let closing: Promise<void> | undefined;
  let finished!: () => void;
  const done = new Promise<void>((resolve) => finished = resolve);
  const close = () => {
    closing ??= (async () => {
      clearInterval(reaper);
      await Promise.all([...sessions.keys()].map(endSession));
      await handler.close().catch(() => {});
      await modern?.proxy.close();
      modern = undefined;
      abort.abort();
      await server.finished.catch(() => {});
      finished();
    })();
    return closing;
  };
  const hostname = address.hostname.includes(":") ? `[${address.hostname}]` : address.hostname;
  return { url: `http://${hostname}:${address.port}${MCP_PATH}`, address, done, close };
}

/** The way to a 2026-07-28 host outside requests: the listen streams the SDK's entry serves. */
function listenDownstream(notify: () => ReturnType<typeof createMcpHandler>["notify"]): Downstream {
  return {
    era: "modern",
    notify(method, params) {
      const bus = notify();
      switch (method) {
        case "notifications/tools/list_changed":
          return bus.toolsChanged();
        case "notifications/prompts/list_changed":
          return bus.promptsChanged();
        case "notifications/resources/list_changed":
          return bus.resourcesChanged();
        case "notifications/resources/updated":
          if (typeof params?.uri === "string") bus.resourceUpdated(params.uri);
          return;
      }
      // Anything else has no stream outside a request in this era: dropped.
    },
    request: () =>
      Promise.reject(new Error("the host speaks 2026-07-28: it cannot be asked outside a request")),
  };
}
