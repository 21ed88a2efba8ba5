/**
 * One upstream for many downstream connections: the mode of the proxy that
 * a jn session serves (lib/client/session_run.ts). Unlike stdio and HTTP,
 * where each downstream session gets its own connection to each source, the
 * sources here open once, when serving starts, with the client capabilities
 * the caller gives (what jn can answer, not one host's), and every
 * connection — a byte stream framed as stdio is, one JSON-RPC message a line
 * — is served by its own server instance over the one hub: the process is
 * the state, and every connection shares it.
 *
 * Guarantees: {@linkcode serveShared} resolves once every source has opened,
 * or rejects with the first source's own error and leaves nothing running;
 * a server's request to its client goes with the request it serves where
 * that can be told (tie.ts) — a 2026-07-28 server's always (it asks through
 * its answer), a 2025 server's when the requests in flight on it all came
 * through one connection; with several it is declined, and each connection
 * in flight is told (`untiedNote`); with none in flight an elicitation is
 * declined and anything else refused (no one is there to answer); the server's
 * notifications go to every open connection; a connection ends when its
 * peer closes it or `close()` is called, the sources live on; `close()` ends
 * every connection, then every source (and its process tree), and is
 * idempotent.
 *
 * @module
 */

import { serveStdio as sdkServeStdio } from "@modelcontextprotocol/server/stdio";
import type { JsonObject } from "../types.ts";
import type { Downstream } from "./hub.ts";
import { downstreamOf } from "./downstream.ts";
import { briefWarnings, type ProxyOptions, ProxySession } from "./session.ts";
import { MAX_LINE_BYTES, PeekingTransport } from "./stdio.ts";
import { StdioTransport } from "./stdio_transport.ts";

/** A downstream connection: a pair of byte streams (a Unix socket's). */
export interface SharedConnection {
  readonly readable: ReadableStream<Uint8Array>;
  readonly writable: WritableStream<Uint8Array>;
  /** Releases the connection (called once it has ended). */
  close(): void;
}

/** Options of {@linkcode serveShared}. */
export interface SharedServeOptions extends ProxyOptions {
  /** What the sources are told their client can do, and the era to prefer. */
  client: { capabilities: JsonObject; era?: "legacy" | "modern" };
  /** Sees each message a connection sends, before it is served. */
  onMessage?(message: unknown): void;
  /** A connection opened or ended; `open` is how many are open now. */
  onConnections?(open: number): void;
}

/** Sources served to whoever connects. */
export interface SharedServing {
  /** How many connections are open. */
  readonly connections: number;
  /** Whether a request of any connection is being served. */
  readonly busy: boolean;
  /** Serves one more connection, until it closes or `close()`. */
  serve(connection: SharedConnection): void;
  /** Ends every connection, then every source. Idempotent. */
  close(): Promise<void>;
}

/** Opens the sources once and returns what serves connections to them. */
export async function serveShared(options: SharedServeOptions): Promise<SharedServing> {
  let failure: Error | undefined;
  const session = new ProxySession({
    ...options,
    events: {
      ...options.events,
      onSourceFailed: (source, error) => {
        failure ??= error;
        options.events.onSourceFailed?.(source, error);
      },
    },
  });
  await session.hub.open(options.client);
  if (failure !== undefined) {
    await session.close();
    throw failure;
  }
  const fanout = new FanOut();
  session.hub.attach(fanout);
  const warn = briefWarnings(options.events.onWarning);
  const open = new Set<() => Promise<void>>();
  let closing: Promise<void> | undefined;

  const serve = (connection: SharedConnection) => {
    if (closing) return void connection.close();
    const wire = new StdioTransport({
      input: connection.readable,
      output: connection.writable,
      maxLineBytes: MAX_LINE_BYTES,
    });
    let member: Downstream | undefined;
    let ended = false;
    const end = async () => {
      if (ended) return;
      ended = true;
      open.delete(end);
      if (member) fanout.delete(member);
      await handle.close().catch(() => {});
      try {
        connection.close();
      } catch { /* already closed */ }
      options.onConnections?.(open.size);
    };
    const peeking = new PeekingTransport(wire, (message) => {
      options.onMessage?.(message);
      session.peek(message);
    }, () => void end());
    const handle = sdkServeStdio(async () => {
      const server = await session.instance({ attach: false });
      member = downstreamOf(server, session.shared);
      if (!ended) fanout.add(member);
      return server;
    }, {
      transport: peeking,
      onerror: (error) => warn?.(`client: ${error.message}`),
    });
    open.add(end);
    options.onConnections?.(open.size);
  };

  return {
    get connections() {
      return open.size;
    },
    get busy() {
      return session.busy;
    },
    serve,
    close() {
      closing ??= (async () => {
        await Promise.all([...open].map((end) => end()));
        await session.close();
      })();
      return closing;
    },
  };
}

/** Every open connection, as the hub's one way to its clients outside their requests. */
class FanOut implements Downstream {
  #members = new Set<Downstream>();

  add(member: Downstream): void {
    this.#members.add(member);
  }

  delete(member: Downstream): void {
    this.#members.delete(member);
  }

  notify(method: string, params?: JsonObject): void {
    for (const member of this.#members) member.notify(method, params);
  }

  /** A question outside any request: no one is waiting to answer it. */
  request(method: string): Promise<JsonObject> {
    if (method === "elicitation/create") return Promise.resolve({ action: "decline" });
    return Promise.reject(new Error("no client is waiting for an answer: refused"));
  }
}
