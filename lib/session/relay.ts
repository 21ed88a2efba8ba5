/**
 * A session as a proxy's upstream (jn serve): what the server asks of its
 * client goes to the relay (types.ts `Relay`) — its requests to be answered
 * by the host, its notifications as they came — and what the proxy wants of
 * the server's change notifications is kept subscribed in either era.
 *
 * Guarantees: only the capabilities the relay names (of sampling,
 * elicitation and roots) are declared, so a server is never offered more
 * than the host offered; a relayed notification loses only the reserved
 * `io.modelcontextprotocol/` keys of its `_meta` (a subscription id of jn's
 * own stream means nothing to the host); progress and cancellation are not
 * relayed here (they belong to a request: see `Session.forward`). A watch
 * never throws for a feature the server does not announce: it asks for what
 * the server offers, nothing more.
 *
 * @module
 */

import type { Client } from "@modelcontextprotocol/client";
import type { JsonObject } from "../types.ts";
import type { Relay, WatchFilter } from "./types.ts";

/** The capabilities a relay may declare, when the host offered them. */
const RELAYED_CAPABILITIES = ["sampling", "elicitation", "roots"] as const;

/** Notifications that are not the relay's: a request's own, or jn's subscription's. */
const NOT_RELAYED = new Set([
  "notifications/progress",
  "notifications/cancelled",
  "notifications/subscriptions/acknowledged",
]);

const RESERVED_META = "io.modelcontextprotocol/";

/** A Standard Schema that takes any result as it is (the proxy passes results through). */
export const PASS_THROUGH = {
  "~standard": {
    version: 1 as const,
    vendor: "jn",
    validate: (value: unknown) => ({ value }),
  },
};

/** The client capabilities to declare for a relay (with jn's own roots, when it has some). */
export function relayCapabilities(relay: Relay, ownRoots: boolean): Record<string, unknown> {
  const capabilities: Record<string, unknown> = {};
  for (const key of RELAYED_CAPABILITIES) {
    const offered = relay.capabilities[key];
    if (offered !== null && typeof offered === "object") capabilities[key] = { ...offered };
  }
  if (ownRoots) capabilities.roots = { listChanged: false };
  return capabilities;
}

/** Registers the handlers that pass the server's requests to the relay (roots: unless jn has its own). */
export function relayRequests(
  client: Client,
  relay: Relay,
  declared: Record<string, unknown>,
  ownRoots: boolean,
) {
  const pass =
    (method: string) => (request: { params?: unknown }, ctx: { mcpReq: { signal: AbortSignal } }) =>
      relay.request(method, (request.params ?? {}) as JsonObject, ctx.mcpReq.signal);
  // The SDK checks each answer against the method's result schema.
  if (declared.sampling) {
    client.setRequestHandler("sampling/createMessage", pass("sampling/createMessage") as never);
  }
  if (declared.elicitation) {
    client.setRequestHandler("elicitation/create", pass("elicitation/create") as never);
  }
  if (declared.roots && !ownRoots) {
    client.setRequestHandler("roots/list", pass("roots/list") as never);
  }
}

/** Passes one notification of the server to the relay, unless it is not the relay's. */
export function relayNotification(
  relay: Relay,
  method: string,
  params: Record<string, unknown> | undefined,
): void {
  if (NOT_RELAYED.has(method)) return;
  relay.notification(method, withoutReservedMeta(params));
}

/**
 * Params or a result without the reserved `io.modelcontextprotocol/` keys of
 * its `_meta` (they belong to the session's own era: an envelope, a
 * subscription id, the server's identity); the same object when it has none.
 */
export function withoutReservedMeta(
  params: Record<string, unknown> | undefined,
): JsonObject | undefined {
  const meta = params?._meta;
  if (meta === null || typeof meta !== "object") return params;
  const keys = Object.keys(meta);
  if (!keys.some((key) => key.startsWith(RESERVED_META))) return params;
  const kept = Object.fromEntries(
    Object.entries(meta).filter(([key]) => !key.startsWith(RESERVED_META)),
  );
  const { _meta: _, ...rest } = params!;
  return Object.keys(kept).length > 0 ? { ...rest, _meta: kept } : rest;
}

/** What a {@linkcode Watcher} needs of its session. */
export interface WatchContext {
  client: Client;
  era?: "legacy" | "modern";
  capabilities: JsonObject;
  /** Bound of a subscribe request (ms). */
  timeoutMs: number;
}

/** Keeps a session's change notifications to the relay subscribed, in either era. */
export class Watcher {
  #ctx: WatchContext;
  #resources = new Set<string>();
  #listen?: { close(): Promise<void> };
  #key = "";
  #queue: Promise<void> = Promise.resolve();

  constructor(ctx: WatchContext) {
    this.#ctx = ctx;
  }

  /** Applies a new filter (one at a time, in order). */
  watch(filter: WatchFilter): Promise<void> {
    const run = this.#queue.then(() => this.#apply(filter));
    this.#queue = run.catch(() => {});
    return run;
  }

  async #apply(filter: WatchFilter): Promise<void> {
    const capabilities = this.#ctx.capabilities;
    const resources = capabilities.resources as JsonObject | undefined;
    const wanted = resources?.subscribe ? [...new Set(filter.resources)].sort() : [];
    const lists = filter.lists.filter((list) =>
      (capabilities[list] as JsonObject | undefined)?.listChanged
    ).sort();
    const options = { timeout: this.#ctx.timeoutMs };
    if (this.#ctx.era !== "modern") {
      // 2025: list changes come unasked; resources by subscribe/unsubscribe.
      const client = this.#ctx.client;
      for (const uri of wanted) {
        if (this.#resources.has(uri)) continue;
        await client.subscribeResource({ uri }, options);
        this.#resources.add(uri);
      }
      for (const uri of [...this.#resources]) {
        if (wanted.includes(uri)) continue;
        this.#resources.delete(uri);
        await client.unsubscribeResource({ uri }, options).catch(() => {});
      }
      return;
    }
    const key = JSON.stringify([lists, wanted]);
    if (key === this.#key) return;
    this.#key = key;
    await this.#listen?.close().catch(() => {});
    this.#listen = undefined;
    if (lists.length === 0 && wanted.length === 0) return;
    const request: Record<string, unknown> = {};
    for (const list of lists) request[`${list}ListChanged`] = true;
    if (wanted.length > 0) request.resourceSubscriptions = wanted;
    this.#listen = await this.#ctx.client.listen(request as never, options);
  }

  /** Ends the listen stream (2026-07-28), if one is open. */
  async close(): Promise<void> {
    await this.#listen?.close().catch(() => {});
    this.#listen = undefined;
  }
}
