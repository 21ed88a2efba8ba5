/**
 * jn's own failures across a session's socket. A failure of the session's
 * side — its server died, its profile is no longer trusted, a restart was
 * refused — reaches the calling jn as a JSON-RPC error (the socket speaks
 * MCP); so that the call fails as it would without a session (the same
 * class, message, hint and exit code), the error's `data` carries the
 * class and hint under the session's nonce, which only jn processes of this
 * user know (the record is 0600 in a private directory). A server's own
 * JSON-RPC error passes through untouched, and cannot pass for jn's. jn's
 * own lines to a caller (a question declined) travel as notifications of a
 * method of jn's own, marked the same way, and are shown as jn's lines.
 *
 * @module
 */

import {
  ConfigError,
  ConnectionError,
  DriftError,
  JnError,
  LaunchError,
  ProtocolError,
  SandboxError,
  UsageError,
} from "../errors.ts";
import type { Upstream } from "../serve/types.ts";
import type { JsonObject } from "../types.ts";

/** The classes a failure keeps across a process boundary, by name. */
const CLASSES: Record<string, new (message: string, options: { hint?: string }) => JnError> = {
  ConfigError,
  ConnectionError,
  DriftError,
  LaunchError,
  ProtocolError,
  SandboxError,
  UsageError,
  TimeoutError: ConnectionError,
  ArgumentError: UsageError,
  UriSyntaxError: UsageError,
};

/**
 * One of jn's errors made again from its name, message and hint (as the
 * session's process reported it): the same class and so the same exit
 * code, or `fallback` for a name it does not know.
 */
export function jnErrorOf(
  name: string,
  message: string,
  hint?: string,
  fallback: new (message: string, options: { hint?: string }) => JnError = ConnectionError,
): JnError {
  const Class = Object.hasOwn(CLASSES, name) ? CLASSES[name] : fallback;
  return new Class(message, { hint });
}

/** JSON-RPC's internal error, which carries jn's own failures. */
const INTERNAL_ERROR = -32603;

/** What `data` holds for one of jn's failures. */
interface Marked {
  jnError: { nonce: string; name: string; hint?: string };
}

/**
 * A failure as the session's side hands it to the proxy: a server's own
 * JSON-RPC error as it is; one of jn's with its class and hint marked.
 */
export function markFailure(error: unknown, nonce: string): unknown {
  if (!(error instanceof JnError)) return error;
  if (error instanceof ProtocolError && typeof error.code === "number") return error;
  const marked: Marked = { jnError: { nonce, name: error.name, hint: error.hint } };
  return {
    code: INTERNAL_ERROR,
    serverMessage: error.message,
    message: error.message,
    data: marked,
  };
}

/** A failure as the calling jn gets it: one of jn's marked failures made whole again. */
export function unmarkFailure(error: unknown, nonce: string): unknown {
  if (!(error instanceof ProtocolError) || error.code !== INTERNAL_ERROR) return error;
  const marked = (error.data as Partial<Marked> | undefined)?.jnError;
  if (marked === null || typeof marked !== "object" || marked.nonce !== nonce) return error;
  const hint = typeof marked.hint === "string" ? marked.hint : undefined;
  return jnErrorOf(String(marked.name), error.serverMessage ?? error.message, hint);
}

/** The method of a session's own line to a calling jn (no MCP method: only jn takes it). */
export const NOTICE_METHOD = "jn/notice";

/**
 * A notification that the calling jn shows as one of its own lines
 * (`jn: TEXT`), marked with the nonce: nothing a server sends can pass for it.
 */
export function markNotice(text: string, nonce: string): { method: string; params: JsonObject } {
  return { method: NOTICE_METHOD, params: { nonce, text } };
}

/**
 * What each jn command in flight on a session is told when a 2025 server's
 * question (`method`) is declined because several commands are (lib/serve/tie.ts).
 */
export function untiedNotice(method: string, server: string, nonce: string) {
  return markNotice(
    `the server ${server} asked ${method} while several jn commands used its session; ` +
      "declined: a 2025 server's question does not say which command it serves (run the " +
      "command that needs it alone, or with --no-session)",
    nonce,
  );
}

/** The text of a notification marked by {@linkcode markNotice} with this nonce; else undefined. */
export function unmarkNotice(
  method: string,
  params: JsonObject | undefined,
  nonce: string,
): string | undefined {
  if (method !== NOTICE_METHOD || params?.nonce !== nonce) return undefined;
  return typeof params.text === "string" ? params.text : undefined;
}

/** An upstream whose failures of jn's own keep their class across the socket. */
export function markedUpstream(upstream: Upstream, nonce: string): Upstream {
  return {
    get server() {
      return upstream.server;
    },
    tools: () => upstream.tools(),
    forward: (method, params, options) =>
      upstream.forward(method, params, options).catch((error) => {
        throw markFailure(error, nonce);
      }),
    notify: (method, params) => upstream.notify(method, params),
    watch: (filter) => upstream.watch(filter),
    close: () => upstream.close(),
  };
}
