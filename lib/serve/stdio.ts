/**
 * Serving over stdio, as hosts start a server: the SDK's `serveStdio`
 * entry (it picks the era from the host's first message: a 2025
 * `initialize`, or a 2026-07-28 `server/discover`) over the SDK's stdio
 * transport, with one downstream session for the connection.
 *
 * Guarantees: the host's first message is read before the sources open,
 * so they are offered the host's capabilities; a malformed line from the
 * host is reported (`onWarning`) and skipped, a line longer than
 * {@linkcode MAX_LINE_BYTES} ends the connection; when the host closes
 * stdin (it quit) or `close()` is called, every source is ended and `done`
 * resolves — it never rejects.
 *
 * @module
 */

import process from "node:process";
import type { Readable, Writable } from "node:stream";
import type { Transport } from "@modelcontextprotocol/server";
import {
  serveStdio as sdkServeStdio,
  StdioServerTransport,
} from "@modelcontextprotocol/server/stdio";
import { type ProxyOptions, ProxySession } from "./session.ts";

/** The longest line read from the host (the SDK's transport ends the connection past it). */
export const MAX_LINE_BYTES = 16 * 1024 * 1024;

/** A running stdio server. */
export interface StdioServing {
  /** Resolves when the connection has ended and every source with it. */
  done: Promise<void>;
  /** Ends the connection and every source. Idempotent. */
  close(): Promise<void>;
}

/** Options of {@linkcode serveOverStdio}. */
export interface StdioServeOptions extends ProxyOptions {
  /** Where the host's messages come from (default: this process's stdin). */
  input?: Readable;
  /** Where the answers go (default: this process's stdout). */
  output?: Writable;
}

/** Serves the sources to one host over stdio. */
export function serveOverStdio(options: StdioServeOptions): StdioServing {
  const session = new ProxySession(options);
  const wire = new StdioServerTransport(
    options.input ?? process.stdin,
    options.output ?? process.stdout,
    {
      maxBufferSize: MAX_LINE_BYTES,
    },
  );
  let ended!: () => void;
  const closed = new Promise<void>((resolve) => ended = resolve);
  const peeking = new PeekingTransport(wire, (message) => session.peek(message), () => ended());
  const handle = sdkServeStdio(() => session.instance(), {
    transport: peeking,
    onerror: (error) => options.events.onWarning?.(`host: ${error.message}`),
  });
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      await handle.close().catch(() => {});
      await session.close();
      ended();
    })();
    return closing;
  };
  const done = closed.then(() => close());
  return { done, close };
}

/** A transport that shows each inbound message to `peek` before passing it on. */
class PeekingTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport["onmessage"];
  #inner: Transport;

  constructor(inner: Transport, peek: (message: unknown) => void, onClosed: () => void) {
    this.#inner = inner;
    inner.onmessage = ((message: unknown, extra?: unknown) => {
      peek(message);
      (this.onmessage as (m: unknown, e?: unknown) => void)?.(message, extra);
    }) as Transport["onmessage"];
    inner.onerror = (error) => this.onerror?.(error);
    inner.onclose = () => {
      this.onclose?.();
      onClosed();
    };
  }

  start(): Promise<void> {
    return this.#inner.start();
  }

  send(...args: Parameters<Transport["send"]>): Promise<void> {
    return this.#inner.send(...args);
  }

  close(): Promise<void> {
    return this.#inner.close();
  }

  setProtocolVersion(version: string): void {
    this.#inner.setProtocolVersion?.(version);
  }
}
