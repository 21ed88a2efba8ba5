/**
 * Remote servers: a channel over the SDK's Streamable HTTP or legacy SSE
 * client transport, with the caller's headers on every request and an
 * optional authorizing `fetch` (lib/session/oauth_fetch.ts).
 *
 * Guarantees: teardown terminates the Streamable HTTP session (`DELETE`,
 * bounded to a second) before the transport closes, unless a detached task
 * asked to keep it (`keepSession`; `sessionId` joins it again later); HTTP failures become
 * ConnectionError (exit 4) naming the URL and the status, malformed JSON
 * becomes ProtocolError (exit 5); `fallsBackToSse()` is the one rule for
 * leaving Streamable HTTP: a 4xx answer other than 401/403/408/429 to the
 * first POST (MCP spec, "Backwards compatibility"). A server whose endpoint
 * takes no POST at all (404/405 to the era probe, no JSON-RPC error in the
 * body) gets no Streamable HTTP `initialize` after the probe: the channel
 * answers it with the probe's refusal, so the fallback to SSE starts at once
 * and the server sees the probe and `initialize` once each.
 *
 * @module
 */

import type { FetchLike, Transport } from "@modelcontextprotocol/client";
import { ConnectionError, type JnError, ProtocolError } from "../errors.ts";
import { type Channel, findCause } from "./channel.ts";

type Sdk = typeof import("@modelcontextprotocol/client");

/** Options of {@linkcode HttpChannel}. */
export interface HttpChannelOptions {
  kind: "streamable-http" | "sse";
  /** Sent with every request to the server. */
  headers: Record<string, string>;
  /** The fetch to use (an authorizing one for OAuth servers). */
  fetch?: FetchLike;
  /** The headers carry credentials of the user's own (a 401 means they were refused). */
  credentials?: boolean;
  /** A Streamable HTTP session to join (no handshake) instead of opening one. */
  sessionId?: string;
}

const TERMINATE_MS = 1000;

/** A channel to a remote server. */
export class HttpChannel implements Channel {
  readonly kind: "streamable-http" | "sse";
  readonly transport: Transport;
  #sdk: Sdk;
  #url: string;
  #credentials: boolean;
  #keep = false;

  constructor(sdk: Sdk, url: string, options: HttpChannelOptions) {
    this.#sdk = sdk;
    this.#url = url;
    this.kind = options.kind;
    this.#credentials = options.credentials === true;
    const common = { requestInit: { headers: options.headers }, fetch: options.fetch };
    this.transport = options.kind === "sse"
      ? new sdk.SSEClientTransport(new URL(url), common)
      : new sdk.StreamableHTTPClientTransport(new URL(url), {
        ...common,
        fetch: refusedOnce(options.fetch ?? fetch),
        sessionId: options.sessionId,
        // A one-shot CLI gives a dropped stream one quick retry, not a minute of backoff.
        reconnectionOptions: {
          initialReconnectionDelay: 500,
          maxReconnectionDelay: 2000,
          reconnectionDelayGrowFactor: 1.5,
          maxRetries: 2,
        },
      });
  }

  stderrTail(): string {
    return "";
  }

  exitStatus(): undefined {
    return undefined;
  }

  async shutdown(): Promise<void> {
    const transport = this.transport;
    if (!(transport instanceof this.#sdk.StreamableHTTPClientTransport)) return;
    if (!transport.sessionId || this.#keep) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      transport.terminateSession().catch(() => {/* 405 or gone: nothing to end */}),
      new Promise((resolve) => timer = setTimeout(resolve, TERMINATE_MS)),
    ]);
    clearTimeout(timer);
  }

  keepSession(): string | undefined {
    this.#keep = true;
    return this.transport.sessionId;
  }

  close(): Promise<void> {
    return this.transport.close();
  }

  translate(error: unknown, label: string): JnError | undefined {
    return translateHttpError(this.#sdk, this.#url, error, label, this.#credentials);
  }
}

/**
 * A fetch that remembers a probe refused the way an SSE-only server refuses
 * every POST (404/405, no JSON-RPC error in the body) and answers the
 * `initialize` that the SDK sends next with the same refusal, unsent.
 */
function refusedOnce(inner: FetchLike): FetchLike {
  let refusal: { status: number; statusText: string; body: string } | undefined;
  return async (url, init) => {
    const method = init?.method === "POST" ? jsonRpcMethod(init.body) : undefined;
    if (refusal && method === "initialize") {
      return new Response(refusal.body, { status: refusal.status, statusText: refusal.statusText });
    }
    const response = await inner(url, init);
    if (method === "server/discover" && (response.status === 404 || response.status === 405)) {
      const body = await response.clone().text().catch(() => "");
      if (jsonRpcMethod(body, "error") === undefined) {
        refusal = { status: response.status, statusText: response.statusText, body };
      }
    }
    return response;
  };
}

/** The `method` of a JSON-RPC message in a body (or whether it has `key`, e.g. "error"). */
function jsonRpcMethod(body: unknown, key = "method"): string | undefined {
  if (typeof body !== "string") return undefined;
  try {
    const value = JSON.parse(body)?.[key];
    return value === undefined ? undefined : String(typeof value === "string" ? value : key);
  } catch {
    return undefined;
  }
}

/** Whether a failed Streamable HTTP connect means "this server only speaks legacy SSE". */
export function fallsBackToSse(sdk: Sdk, error: unknown): boolean {
  const status = httpStatus(sdk, error);
  return status !== undefined && status >= 400 && status < 500 &&
    ![401, 403, 408, 429].includes(status);
}

/** True for hosts that never leave the machine. */
export function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return host === "localhost" || host.endsWith(".localhost") || host === "::1" ||
    /^127\.\d+\.\d+\.\d+$/.test(host);
}

function httpStatus(sdk: Sdk, error: unknown): number | undefined {
  return findCause(error, (candidate) => {
    if (candidate instanceof sdk.SdkHttpError) return candidate.data?.status;
    if (candidate instanceof sdk.SseError) return candidate.code;
    return undefined;
  });
}

/** Maps an HTTP-level failure to a jn error; undefined when it is not one. */
export function translateHttpError(
  sdk: Sdk,
  url: string,
  error: unknown,
  label: string,
  credentials = false,
): JnError | undefined {
  const syntax = findCause(error, (c) => c instanceof SyntaxError ? c : undefined);
  if (syntax) {
    return new ProtocolError(
      `The server "${url}" sent malformed JSON${
        label ? ` in answer to ${label}` : ""
      }: ${syntax.message}`,
      { cause: error },
    );
  }
  const http = findCause(error, (c) => c instanceof sdk.SdkHttpError ? c : undefined);
  if (http) return httpStatusError(url, label, http.data ?? {}, error, credentials);
  const sse = findCause(error, (c) => c instanceof sdk.SseError ? c : undefined);
  if (sse?.code) return httpStatusError(url, label, { status: sse.code }, error, credentials);
  const content = findCause(
    error,
    (c) =>
      c instanceof sdk.SdkError && c.code === sdk.SdkErrorCode.ClientHttpUnexpectedContent
        ? c
        : undefined,
  );
  if (content) {
    return new ProtocolError(
      `The server "${url}" answered ${label} with an unexpected content type`,
      { cause: error, hint: "is the URL an MCP endpoint? (often it ends in /mcp or /sse)" },
    );
  }
  // The SDK parses each message with zod: JSON that is not JSON-RPC fails with zod's issues.
  const notRpc = findCause(
    error,
    (c) => Array.isArray((c as { issues?: unknown })?.issues) ? c : undefined,
  );
  if (notRpc) {
    return new ProtocolError(
      `The server at ${url} answered${label ? ` ${label}` : ""} with something that is not MCP: ` +
        "JSON that is not a JSON-RPC 2.0 message",
      { cause: error, hint: "is the URL an MCP endpoint? (often it ends in /mcp or /sse)" },
    );
  }
  const network = findCause(error, (c) => c instanceof TypeError ? c : undefined);
  if (network) return networkError(url, network, error);
  return undefined;
}

function httpStatusError(
  url: string,
  label: string,
  data: { status?: number; statusText?: string; text?: unknown },
  cause: unknown,
  credentials: boolean,
): JnError {
  const status = data.status ?? 0;
  const reason = data.statusText ? ` ${data.statusText}` : "";
  if (status === 401 && credentials) {
    return new ConnectionError(`The server "${url}" refused the credentials (HTTP 401)`, {
      cause,
      hint: "check the token given with --token-env or the Authorization header",
    });
  }
  if (status === 401) {
    return new ConnectionError(`The server "${url}" requires authorization (HTTP 401)`, {
      cause,
      hint: `sign in with 'jn auth login ${url}', or pass a token with --token-env VAR`,
    });
  }
  const body = typeof data.text === "string" ? firstLine(data.text) : "";
  return new ConnectionError(
    `The server "${url}" answered ${label} with HTTP ${status}${reason}${body ? `: ${body}` : ""}`,
    {
      cause,
      hint: status === 404
        ? "check the URL's path (MCP endpoints are often /mcp or /sse)"
        : status === 403
        ? "the credentials lack access; check --header/--token-env or 'jn auth status'"
        : undefined,
    },
  );
}

function networkError(url: string, error: TypeError, cause: unknown): JnError {
  let root: unknown = error;
  while (root instanceof Error && root.cause instanceof Error) root = root.cause;
  const detail = (root as Error).message ?? String(root);
  const host = new URL(url).host;
  if (/connection refused/i.test(detail)) {
    return new ConnectionError(`Cannot connect to "${url}": connection refused`, {
      cause,
      hint: "is the server running, and is the port right?",
    });
  }
  if (/dns error|lookup address|name or service not known|no such host/i.test(detail)) {
    return new ConnectionError(`Cannot resolve the host "${host}"`, {
      cause,
      hint: "check the host name in the URL",
    });
  }
  if (/certificate|tls|ssl|handshake|corrupt message/i.test(detail)) {
    return new ConnectionError(`TLS with "${host}" failed: ${lastClause(detail)}`, {
      cause,
      hint: "check the scheme and port (https:// to a plain-HTTP port fails like this)",
    });
  }
  return new ConnectionError(`Cannot connect to "${url}": ${lastClause(detail)}`, { cause });
}

function firstLine(text: string): string {
  const stripped = text.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ").trim();
  return stripped.length > 160 ? `${stripped.slice(0, 160)}…` : stripped;
}

function lastClause(detail: string): string {
  // Deno: "error sending request for url (…): client error (Connect): tcp connect error: …"
  const parts = detail.split(/:\s+/);
  return parts.slice(-2).join(": ");
}
