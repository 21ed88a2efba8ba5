/**
 * The upstream side of one downstream session: its sources opened with the
 * host's capabilities, what the proxy offers the host (identity,
 * capabilities, instructions), and everything the servers send the other
 * way — their notifications and their requests to the host.
 *
 * Guarantees: the sources open once, together, when the host's first
 * message says what it can do; a source that fails to open is reported and
 * listed as failed (in the instructions the host sees), and the others
 * serve. A server's request to the host goes with the host request it
 * serves, when one is in flight and it can be tied to one host's requests
 * (tie.ts: otherwise it is declined and the hosts in flight are told).
 * Without one in flight it goes on its own, which only the 2025 era has a
 * way for (2026-07-28 refuses it). A server's changed tool list is filtered
 * again before the host is told, so a withheld tool never shows. `close()`
 * ends every source (and its process tree) and is idempotent.
 *
 * @module
 */

import type { JsonObject, ToolInfo } from "../types.ts";
import { NameTable, ResourceRoutes } from "./catalog.ts";
import { declineUntied, type HostCall, tiedCall, UNTIED } from "./tie.ts";
import type { HostSide, ProxyEvents, ServeSource, ToolOffer, Upstream } from "./types.ts";

/** The downstream server instance the hub sends through, outside any request. */
export interface Downstream {
  /** The era the host speaks, once known. */
  readonly era?: "legacy" | "modern";
  /** A notification to the host (a log message respects the host's level). */
  notify(method: string, params?: JsonObject): void;
  /** A request to the host outside any request of its (2025 era only). */
  request(method: string, params: JsonObject, signal: AbortSignal): Promise<JsonObject>;
}

/** A source's offer, with the tools as the host sees them (namespaced). */
export interface OfferedTools extends ToolOffer {
  shown: ToolInfo[];
}

/** One source in a downstream session. */
export interface Entry {
  name: string;
  upstream?: Upstream;
  /** Why it did not open. */
  failure?: string;
  /** Its tools after the filter, while its list has not changed. */
  offer?: Promise<OfferedTools>;
  /** What was last reported withheld (to report a change once). */
  reported?: string;
  /** Resource URIs the host subscribed to. */
  resources: Set<string>;
}

/** Options of a {@linkcode Hub}. */
export interface HubOptions {
  sources: readonly ServeSource[];
  /** jn's identity, offered when several sources are served. */
  serverInfo: { name: string; version: string };
  /** The longest offered name (default 64). */
  maxNameLength?: number;
  events: ProxyEvents;
}

const LISTS = ["tools", "resources", "prompts"] as const;

/** The sources of one downstream session. */
export class Hub {
  readonly tools: NameTable;
  readonly prompts: NameTable;
  readonly resources = new ResourceRoutes();
  /** Which source created a task. */
  readonly tasks = new Map<string, string>();
  /** Whether names are namespaced (several sources). */
  readonly namespaced: boolean;
  readonly events: ProxyEvents;
  #options: HubOptions;
  #entries: Entry[];
  #opened?: Promise<void>;
  #downstream?: Downstream;
  #calls = new Map<string, HostCall[]>();
  #closed?: Promise<void>;

  constructor(options: HubOptions) {
    this.#options = options;
    this.events = options.events;
    this.namespaced = options.sources.length > 1;
    const tableOptions = { namespaced: this.namespaced, maxLength: options.maxNameLength };
    this.tools = new NameTable(tableOptions);
    this.prompts = new NameTable(tableOptions);
    this.#entries = options.sources.map((source) => ({ name: source.name, resources: new Set() }));
  }

  /** Opens every source (once) for a host with these capabilities, of this era. */
  open(host: { capabilities: JsonObject; era?: "legacy" | "modern" }): Promise<void> {
    this.#opened ??= Promise.all(this.#options.sources.map(async (source, index) => {
      const entry = this.#entries[index];
      try {
        entry.upstream = await source.open(this.#hostSide(entry, host));
      } catch (error) {
        entry.failure = (error as Error)?.message ?? String(error);
        this.events.onSourceFailed?.(entry.name, error as Error);
        return;
      }
      if (this.#closed) return void entry.upstream.close();
      // 2026-07-28 servers announce list changes on a listen stream only.
      entry.upstream.watch({ lists: [...LISTS], resources: [] }).catch(() => {});
    })).then(() => {});
    return this.#opened;
  }

  /** The sources that opened. */
  live(): Entry[] {
    return this.#entries.filter((entry) => entry.upstream !== undefined);
  }

  /** A source by namespace. */
  entry(name: string): Entry | undefined {
    return this.#entries.find((entry) => entry.name === name);
  }

  /** Every source, failed ones included. */
  all(): readonly Entry[] {
    return this.#entries;
  }

  /** The instance to send through outside requests (the latest attached). */
  attach(downstream: Downstream): void {
    this.#downstream = downstream;
  }

  /** Tracks a host request in flight on a source; returns its end. */
  begin(call: HostCall): () => void {
    const calls = this.#calls.get(call.source) ?? [];
    calls.push(call);
    this.#calls.set(call.source, calls);
    return () => {
      const at = calls.indexOf(call);
      if (at !== -1) calls.splice(at, 1);
    };
  }

  /**
   * A source's tools after the filter, as the host sees them (listed once
   * until its list changes; the routing table follows the latest listing).
   */
  offer(entry: Entry): Promise<OfferedTools> {
    const upstream = entry.upstream;
    if (!upstream) return Promise.resolve({ offered: [], withheld: [], shown: [] });
    if (entry.offer) return entry.offer;
    const offer: Promise<OfferedTools> = upstream.tools().then((result) => {
      if (entry.offer !== offer) {
        return { ...result, shown: this.tools.offeredTools(entry.name, result.offered) };
      }
      const shown = this.tools.set(entry.name, result.offered, result);
      this.#reportWithheld(entry, result);
      return { ...result, shown };
    });
    entry.offer = offer;
    offer.catch(() => {
      if (entry.offer === offer) entry.offer = undefined;
    });
    return offer;
  }

  /** A log message of jn's own to the host. */
  say(level: "warning" | "error" | "info", data: string): void {
    this.#downstream?.notify("notifications/message", { level, logger: "jn", data });
  }

  /** Keeps a source's subscriptions as the host wants them. */
  async watch(entry: Entry): Promise<void> {
    await entry.upstream?.watch({ lists: [...LISTS], resources: [...entry.resources] });
  }

  /** Ends every source. Idempotent. */
  close(): Promise<void> {
    this.#closed ??= (async () => {
      await this.#opened?.catch(() => {});
      await Promise.all(this.#entries.map((entry) => entry.upstream?.close().catch(() => {})));
    })();
    return this.#closed;
  }

  #reportWithheld(entry: Entry, offer: ToolOffer): void {
    const key = JSON.stringify(offer.withheld);
    if (key === (entry.reported ?? "[]")) return;
    entry.reported = key;
    if (offer.withheld.length === 0) return;
    this.events.onWithheld?.(entry.name, offer.withheld);
    for (const tool of offer.withheld) {
      this.say(
        "warning",
        `jn withholds the tool "${tool.name}" of "${entry.name}": ${tool.reason}`,
      );
    }
  }

  #hostSide(entry: Entry, host: { capabilities: JsonObject; era?: "legacy" | "modern" }): HostSide {
    return {
      capabilities: host.capabilities,
      era: host.era,
      request: (method, params, signal) => this.#ask(entry, method, params, signal),
      notification: (method, params) => this.#fromUpstream(entry, method, params),
    };
  }

  /**
   * A server's request to the host: with the latest host request in flight
   * on its source when that is one host's (see tie.ts),
   * declined when it is not, or on its own when none is in flight.
   */
  #ask(entry: Entry, method: string, params: JsonObject, signal: AbortSignal) {
    const calls = this.#calls.get(entry.name) ?? [];
    if (calls.length > 0) {
      const call = tiedCall(calls);
      if (call) return call.ask(method, params, signal);
      this.events.onWarning?.(`a request of "${entry.name}" (${method}) was declined: ${UNTIED}`);
      return declineUntied(calls, method);
    }
    const downstream = this.#downstream;
    if (!downstream) return Promise.reject(new Error("No host is connected"));
    return downstream.request(method, params, signal);
  }

  #fromUpstream(entry: Entry, method: string, params: JsonObject | undefined): void {
    const downstream = this.#downstream;
    switch (method) {
      case "notifications/tools/list_changed": {
        entry.offer = undefined;
        this.tools.clear(entry.name);
        // Filtered again first: the host lists again at once, and must not see a withheld tool.
        const next = this.offer(entry).catch(() => {});
        void next.then(() => this.#downstream?.notify(method, params));
        return;
      }
      case "notifications/prompts/list_changed":
        this.prompts.clear(entry.name);
        break;
      case "notifications/resources/list_changed":
        // Its claims are read again before the next read is routed (dispatch.ts resourceSources).
        this.resources.clear(entry.name);
        break;
      case "notifications/message":
        if (this.namespaced && params) {
          const logger = typeof params.logger === "string"
            ? `${entry.name}/${params.logger}`
            : entry.name;
          params = { ...params, logger };
        }
        break;
    }
    downstream?.notify(method, params);
  }
}
