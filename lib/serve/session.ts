/**
 * lib/serve: the proxy `serve` puts in front of MCP hosts, over the SDK's server side: stdio, Streamable HTTP.
 *
 * One downstream session: one host connection over stdio, or one 2025
 * Streamable HTTP session (or, for the 2026-07-28 era over HTTP, which has
 * no sessions, all its requests). It owns its sources (one upstream
 * connection each: what a stateful server expects), its held input rounds,
 * and makes the server instances that face the host.
 *
 * Guarantees: the sources open with the capabilities of the host's first
 * message that declares any, and never with more, and in the host's era
 * where they can (a 2025 host's servers are spoken to in 2025); resources a 2026-07-28
 * host listens to are subscribed upstream; `close()` ends every source and
 * abandons held rounds, and is idempotent.
 *
 * @module
 */

import type { Server } from "@modelcontextprotocol/server";
import type { JsonObject } from "../types.ts";
import { Hub } from "./hub.ts";
import { servedIdentity } from "./identity.ts";
import { declaredHost, type HostDeclaration, listenedResources } from "./peek.ts";
import { downstreamOf } from "./downstream.ts";
import { proxyServer, type SessionShared, sessionShared } from "./proxy_server.ts";
import type { ProxyEvents, ServeSource } from "./types.ts";

/** What every downstream session of one `serve` shares. */
export interface ProxyOptions {
  /** The sources, in order (their names namespace them when there are several). */
  sources: readonly ServeSource[];
  /** jn's identity (offered with several sources). */
  jn: { name: string; version: string };
  /** The longest offered name (default 64). */
  maxNameLength?: number;
  events: ProxyEvents;
  /**
   * Offer the host exactly the server's identity and capabilities (one
   * source, no filter of jn's: a jn session), not jn's additions.
   */
  asIs?: boolean;
  /**
   * Checked before each host request is served (a jn session re-checks its
   * profile's trust); what it throws refuses the request (JSON-RPC error).
   */
  gate?: () => void | Promise<void>;
  /**
   * The notification that tells a host its request was in flight when a
   * server's `method` was declined, untied (tie.ts); default: a log message
   * (a warning of the logger `jn`, sent where the server has logging).
   */
  untiedNote?: (method: string) => { method: string; params: JsonObject };
}

/** One downstream session. */
export class ProxySession {
  readonly hub: Hub;
  readonly shared: SessionShared;
  #options: ProxyOptions;
  #host?: HostDeclaration;
  #closed?: Promise<void>;

  constructor(options: ProxyOptions) {
    this.#options = options;
    this.hub = new Hub({
      sources: options.sources,
      serverInfo: options.jn,
      maxNameLength: options.maxNameLength,
      events: options.events,
    });
    this.shared = sessionShared(
      this.hub,
      briefWarnings(options.events.onWarning),
      options.gate,
      options.untiedNote,
    );
  }

  /** Reads a host message before the SDK serves it. */
  peek(message: unknown): void {
    this.#host ??= declaredHost(message);
    const uris = listenedResources(message);
    if (uris.length > 0) void this.#listen(uris);
  }

  /**
   * A server instance facing the host; the sources open first (once). It
   * becomes the way to the host outside requests unless `attach` is false
   * (2026-07-28 over HTTP: one instance per request, notifications go to the
   * listen streams instead).
   */
  async instance(options: { attach?: boolean } = {}): Promise<Server> {
    await this.hub.open(this.#host ?? { capabilities: {} });
    const identity = servedIdentity(this.hub, this.#options.jn, { asIs: this.#options.asIs });
    const server = proxyServer(this.shared, identity);
    if (options.attach !== false) this.hub.attach(downstreamOf(server, this.shared));
    return server;
  }

  /** Whether a host request is being served. */
  get busy(): boolean {
    return this.shared.inFlight > 0;
  }

  /** Ends the session's sources. Idempotent. */
  close(): Promise<void> {
    this.#closed ??= (async () => {
      this.shared.bridge.close();
      await this.hub.close();
    })();
    return this.#closed;
  }

  async #listen(uris: string[]): Promise<void> {
    await this.hub.open(this.#host ?? { capabilities: {} }).catch(() => {});
    const live = this.hub.live();
    for (const uri of uris) {
      // A URI several sources claim is subscribed at none of them (catalog.ts ResourceRoutes).
      if (live.length > 1 && this.hub.resources.claimants(uri).length > 1) continue;
      const source = live.length === 1 ? live[0].name : this.hub.resources.route(uri);
      const targets = source === undefined ? live : live.filter((entry) => entry.name === source);
      for (const entry of targets) {
        const resources = entry.upstream!.server.capabilities.resources as JsonObject | undefined;
        if (!resources?.subscribe || entry.resources.has(uri)) continue;
        entry.resources.add(uri);
        await this.hub.watch(entry).catch(() => {});
      }
    }
  }
}

/** The longest warning passed on (a malformed message can make the SDK's very long). */
const MAX_WARNING = 300;

/**
 * A warning reporter that gives one line of at most {@linkcode MAX_WARNING}
 * characters, and says a warning repeated at once (the SDK reports one
 * failure of the host's connection to two listeners) only once.
 */
export function briefWarnings(
  onWarning: ((message: string) => void) | undefined,
): ((message: string) => void) | undefined {
  if (!onWarning) return undefined;
  let last = "";
  return (message) => {
    let line = message.replace(/\s+/g, " ").trim();
    if (line.length > MAX_WARNING) line = `${line.slice(0, MAX_WARNING)}…`;
    if (line === last) return;
    last = line;
    queueMicrotask(() => last = "");
    onWarning(line);
  };
}
