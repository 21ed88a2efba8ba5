/**
 * Which host request a server's request to the host (elicitation, sampling,
 * roots) goes with. A 2025 server's question does not say which request it
 * serves: it goes with the latest host request in flight on its source when
 * every request in flight there came through one downstream connection (one
 * host's), and is declined when they came through several — 2026-07-28 hosts
 * over HTTP share a hub, one connection per request; a jn session serves
 * many jn commands over one hub — never handed to a host that did not cause
 * it. A 2026-07-28 server asks through its answer (`input_required`), which
 * the proxy relates to its request exactly (bridge.ts), so this never arises.
 *
 * Guarantees: an untied question is declined (elicitation: `decline`;
 * anything else: an error), and each connection with a request in flight on
 * the source is told so once (`HostCall.declined`): one of them may be
 * waiting for an answer that will not come.
 *
 * @module
 */

import type { JsonObject } from "../types.ts";

/** One host request being served by a source: what a server's request to the host relates to. */
export interface HostCall {
  /** The source serving it. */
  readonly source: string;
  /**
   * The downstream connection the request came through (the server instance
   * facing the host: one per host connection, one per request for
   * 2026-07-28 over HTTP). Requests of one connection are one host's.
   */
  readonly connection: object;
  /** Asks the host, related to this request. */
  ask(method: string, params: JsonObject, signal: AbortSignal): Promise<JsonObject>;
  /** Tells the host, related to this request, that a server's `method` was declined, untied. */
  declined?(method: string): void;
}

/** Why a server's request that cannot be tied to one host request is declined. */
export const UNTIED = "requests of several hosts are in flight on that source, and a server's " +
  "question does not say which one it serves";

/**
 * The host request a server's request goes with, among those in flight on
 * its source (in the order they began): the latest, when all came through
 * one connection; undefined when several connections have requests in
 * flight — the server's request cannot be tied to one host then.
 */
export function tiedCall(calls: readonly HostCall[]): HostCall | undefined {
  const latest = calls.at(-1);
  return calls.every((call) => call.connection === latest?.connection) ? latest : undefined;
}

/** Declines a server's request no host request can be tied to, telling each connection once. */
export function declineUntied(calls: readonly HostCall[], method: string): Promise<JsonObject> {
  const told = new Set<object>();
  for (const call of calls) {
    if (told.has(call.connection)) continue;
    told.add(call.connection);
    call.declined?.(method);
  }
  if (method === "elicitation/create") return Promise.resolve({ action: "decline" });
  return Promise.reject(new Error(`jn serve declined ${method}: ${UNTIED}`));
}

/**
 * jn's warning to a host whose request was in flight when a server's
 * `method` was declined: a log message (the SDK sends it only where the
 * server, whose capabilities the host sees, has logging).
 */
export function untiedWarning(method: string): { method: string; params: JsonObject } {
  return {
    method: "notifications/message",
    params: {
      level: "warning",
      logger: "jn",
      data: `jn declined the server's ${method}: requests of several hosts were in flight on ` +
        "its source, and its request does not say which one it serves",
    },
  };
}
