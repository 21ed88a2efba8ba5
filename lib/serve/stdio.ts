/**
 * Serving over stdio, as hosts start a server: the SDK's `serveStdio`
 * entry (it picks the era from the host's first message: a 2025
 * `initialize`, or a 2026-07-28 `server/discover`) over jn's linear stdio
 * transport, with one downstream session for the connection.
 *
 * Guarantees: the host's first message is read before the sources open,
 * so they are offered the host's capabilities; a malformed line from the
 * host, or one longer than {@linkcode MAX_LINE_BYTES}, is reported
 * (`onWarning`) and skipped (stdio_transport.ts); when the host closes
 * stdin (it quit) or `close()` is called, every source is ended and `done`
 * resolves — it never rejects.
 *
 * @module
 */

import type { Transport } from "@modelcontextprotocol/server";
import { serveStdio as sdkServeStdio } from "@modelcontextprotocol/server/stdio";
import { type ProxyOptions, ProxySession } from "./session.ts";
import { StdioTransport } from "./stdio_transport.ts";

/** The longest line taken from the host; a longer one is dropped. */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;

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
  input?: ReadableStream<Uint8Array>;
  /** Where the answers go (default: this process's stdout). */
  output?: WritableStream<Uint8Array>;
}

/** Serves the sources to one host over stdio. */
export function serveOverStdio(options: StdioServeOptions): StdioServing {
  const session = new ProxySession(options);
  const warn = session.shared.onWarning;
  const wire = new StdioTransport({
    input: options.input,
    output: options.output,
    maxLineBytes: MAX_LINE_BYTES,
  });
  let ended!: () => void;
  const closed = new Promise<void>((resolve) => ended = resolve);
  const peeking = new PeekingTransport(wire, (message) => session.peek(message), () => ended());
  const handle = sdkServeStdio(() => session.instance(), {
    transport: peeking,
    onerror: (error) => warn?.(`host: ${error.message}`),
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
export class PeekingTransport implements Transport {
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
