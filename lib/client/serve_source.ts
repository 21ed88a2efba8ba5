/**
 * One source of `serve` as the proxy's upstream (lib/serve/types.ts
 * `Upstream`): a connection opened by {@linkcode open} — the same policy as
 * every verb — whose server's requests and notifications go to the host,
 * whose tools pass the filter before the host sees them, and which is
 * started again when its server dies.
 *
 * Guarantees: everything handed to the host (results, errors, notifications,
 * the server's requests) has the connection's secrets redacted; a server that
 * died is opened again — from its source, so trust and the rest are checked
 * again — on the next request, after a pause that doubles each time, at most
 * `restarts` times in all (each reported); the requests in flight when it
 * died fail at once with the reason; after a restart the host is told the
 * lists may have changed and the subscriptions are made again.
 *
 * @module
 */

import { ConnectionError, type JnError } from "../errors.ts";
import { redactDeep } from "../output/redact.ts";
import type {
  HostSide,
  ToolOffer,
  Upstream,
  UpstreamIdentity,
  WatchFilter,
} from "../serve/types.ts";
import type { ForwardOptions } from "../session/types.ts";
import type { JsonObject, ToolInfo } from "../types.ts";
import type { Connection } from "./connection.ts";
import { open } from "./open.ts";
import type { ClientEvents, OpenOptions } from "./options.ts";

/**
 * The seam of curation and pinning: what of a server's tools the host is
 * offered. It runs before the host first sees the tools and again on each
 * `notifications/tools/list_changed` of the server; a withheld tool is not
 * listed and its calls are refused with the reason.
 */
export type ToolFilter = (conn: Connection, tools: ToolInfo[]) => ToolOffer | Promise<ToolOffer>;

/** The filter that offers every tool as the server lists it (serve's default). */
export function offerAll(_conn: Connection, tools: ToolInfo[]): ToolOffer {
  return { offered: tools, withheld: [] };
}

/** How one source is opened and kept. */
export interface SourcePolicy {
  /** The source as given (a profile reference or a naked URI). */
  source: string;
  /** Its namespace (for messages). */
  name: string;
  open: OpenOptions;
  filter: ToolFilter;
  /** Restarts at most, in all. */
  restarts: number;
  /** The pause before the first restart (ms); it doubles each time. */
  backoffMs: number;
  /** A restart is starting (attempt counts from 1). */
  onRestart?: (attempt: number, reason: JnError) => void;
  /**
   * Whether what goes to the host is redacted (default true). A jn session's
   * caller is jn of the same user, which redacts what it prints itself:
   * results then stay the caller's data, as in a direct call.
   */
  redact?: boolean;
}

/** Opens a source for one host. */
export async function openSource(policy: SourcePolicy, host: HostSide): Promise<Upstream> {
  const source = new ServedSource(policy, host);
  await source.start();
  return source;
}

class ServedSource implements Upstream {
  #policy: SourcePolicy;
  #host: HostSide;
  #conn?: Connection;
  #dead?: JnError;
  #restarts = 0;
  #starting?: Promise<Connection>;
  #offer?: Promise<ToolOffer>;
  #filter?: WatchFilter;
  #identity?: UpstreamIdentity;
  #closed = false;

  constructor(policy: SourcePolicy, host: HostSide) {
    this.#policy = policy;
    this.#host = host;
  }

  /** What the server said about itself (redacted), as of its latest start. */
  get server(): UpstreamIdentity {
    if (this.#identity) return this.#identity;
    const conn = this.#conn!;
    const server = conn.session.server;
    this.#identity = this.#redact({
      name: server.name,
      version: server.version,
      capabilities: server.capabilities,
      instructions: server.instructions,
      era: server.era,
      protocolVersion: server.protocolVersion,
    }, conn.secrets);
    return this.#identity;
  }

  async start(): Promise<void> {
    this.#conn = await this.#open();
  }

  async tools(): Promise<ToolOffer> {
    const conn = await this.#live();
    this.#offer ??= (async () => {
      const listed = await conn.session.listTools();
      return this.#redact(await this.#policy.filter(conn, listed), conn.secrets);
    })();
    const offer = this.#offer;
    offer.catch(() => {
      if (this.#offer === offer) this.#offer = undefined;
    });
    return await offer.catch((error) => {
      throw conn.explain(error);
    });
  }

  async forward(method: string, params: JsonObject | undefined, options?: ForwardOptions) {
    const conn = await this.#live();
    // The host owns the bound of its requests (it cancels them), unless the caller set one.
    const timeoutMs = options?.timeoutMs ?? this.#policy.open.timeoutMs ?? 0;
    try {
      return this.#redact(
        await conn.session.forward(method, params, { ...options, timeoutMs }),
        conn.secrets,
      );
    } catch (error) {
      throw conn.explain(error);
    }
  }

  async notify(method: string, params?: JsonObject): Promise<void> {
    const conn = await this.#live();
    await conn.session.notify(method, params).catch((error) => {
      throw conn.explain(error);
    });
  }

  async watch(filter: WatchFilter): Promise<void> {
    this.#filter = filter;
    const conn = await this.#live();
    await conn.session.watch(filter).catch((error) => {
      throw conn.explain(error);
    });
  }

  #redact<T>(value: T, secrets: readonly string[]): T {
    return this.#policy.redact === false ? value : redactDeep(value, secrets);
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.#starting?.catch(() => {});
    await this.#conn?.close();
  }

  /** The connection, opened again first if its server died. */
  async #live(): Promise<Connection> {
    if (this.#dead === undefined) return this.#conn!;
    this.#starting ??= this.#restart(this.#dead).finally(() => this.#starting = undefined);
    return await this.#starting;
  }

  async #restart(reason: JnError): Promise<Connection> {
    const policy = this.#policy;
    if (this.#restarts >= policy.restarts) {
      throw new ConnectionError(
        `The source "${policy.name}" stopped and was started again ${this.#restarts} times: not again (${reason.message})`,
      );
    }
    const attempt = ++this.#restarts;
    policy.onRestart?.(attempt, reason);
    await new Promise((resolve) => setTimeout(resolve, policy.backoffMs * 2 ** (attempt - 1)));
    if (this.#closed) throw reason;
    await this.#conn?.close();
    const conn = await this.#open();
    this.#conn = conn;
    this.#dead = undefined;
    this.#offer = undefined;
    this.#identity = undefined;
    if (this.#filter) await conn.session.watch(this.#filter).catch(() => {});
    // What the server offers may differ now: the host lists again.
    for (const list of ["tools", "prompts", "resources"]) {
      this.#host.notification(`notifications/${list}/list_changed`, undefined);
    }
    return conn;
  }

  async #open(): Promise<Connection> {
    const options = this.#policy.open;
    const events: ClientEvents = {
      ...options.events,
      onEnded: (error) => {
        this.#dead = error;
        options.events?.onEnded?.(error);
      },
    };
    return await open(this.#policy.source, {
      ...options,
      // With "auto", a 2025 host's servers are spoken to in 2025 too (what they send
      // it is then theirs as it is); a pinned choice of the caller's stands.
      protocol: (options.protocol ?? "auto") === "auto" && this.#host.era === "legacy"
        ? "legacy"
        : options.protocol,
      events,
      relay: {
        capabilities: this.#host.capabilities,
        request: (method, params, signal) => this.#host.request(method, params, signal),
        notification: (method, params) => {
          if (method === "notifications/tools/list_changed") this.#offer = undefined;
          this.#host.notification(method, params);
        },
      },
    });
  }
}
