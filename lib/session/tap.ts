/**
 * A transparent wrapper around an MCP transport that watches the traffic:
 * every message both ways (for `--debug`), the sends still in flight (so a
 * teardown can let a `notifications/cancelled` go out before ending the
 * session), and requests whose HTTP response stream ended without an answer
 * (a server that closed the stream mid-call would otherwise leave the call
 * hanging until its timeout).
 *
 * The wrapper exposes `pid`/`stderr` only when the wrapped transport has
 * them, because the SDK tells stdio from HTTP by those two properties.
 *
 * @module
 */

import type { Transport } from "@modelcontextprotocol/client";

type Message = Parameters<Transport["send"]>[0];
const UNANSWERED_GRACE_MS = 250;
type SendOptions = Parameters<Transport["send"]>[1];

/** What the tap reports. */
export interface TapHooks {
  /** Every JSON-RPC message, both ways. */
  onTrace?: (direction: "send" | "recv", message: unknown) => void;
  /** A request's response stream ended and the request is still unanswered (`tools/call "x"`). */
  onUnanswered?: (request: string) => void;
}

/** A transport that reports its traffic. */
export class TransportTap implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport["onmessage"];

  #inner: Transport;
  #hooks: TapHooks;
  #pending = new Map<string | number, string>();
  #inFlight = new Set<Promise<void>>();

  constructor(inner: Transport, hooks: TapHooks = {}) {
    this.#inner = inner;
    this.#hooks = hooks;
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => this.onerror?.(error);
    inner.onmessage = ((message: Message, extra?: unknown) => {
      hooks.onTrace?.("recv", message);
      const id = (message as { id?: string | number }).id;
      if (id !== undefined && !("method" in message)) this.#pending.delete(id);
      (this.onmessage as (m: Message, e?: unknown) => void)?.(message, extra);
    }) as Transport["onmessage"];
    for (const key of ["pid", "stderr"] as const) {
      if (key in inner) {
        Object.defineProperty(this, key, { get: () => (inner as never)[key], enumerable: true });
      }
    }
  }

  /** The wrapped transport. */
  get inner(): Transport {
    return this.#inner;
  }

  get sessionId(): string | undefined {
    return this.#inner.sessionId;
  }

  get hasPerRequestStream(): boolean | undefined {
    return (this.#inner as { hasPerRequestStream?: boolean }).hasPerRequestStream;
  }

  setProtocolVersion(version: string): void {
    this.#inner.setProtocolVersion?.(version);
  }

  setSupportedProtocolVersions(versions: string[]): void {
    this.#inner.setSupportedProtocolVersions?.(versions);
  }

  start(): Promise<void> {
    return this.#inner.start();
  }

  send(message: Message, options?: SendOptions): Promise<void> {
    this.#hooks.onTrace?.("send", message);
    const request = message as {
      id?: string | number;
      method?: string;
      params?: { name?: unknown };
    };
    let sendOptions = options;
    if (request.id !== undefined && typeof request.method === "string") {
      const id = request.id;
      const name = typeof request.params?.name === "string" ? ` "${request.params.name}"` : "";
      this.#pending.set(id, `${request.method}${name}`);
      sendOptions = {
        ...options,
        onRequestStreamEnd: () => {
          options?.onRequestStreamEnd?.();
          // The answer may still come on another stream (a resumed GET): give it a moment.
          setTimeout(() => {
            const method = this.#pending.get(id);
            if (method !== undefined) this.#hooks.onUnanswered?.(method);
          }, UNANSWERED_GRACE_MS);
        },
      } as SendOptions;
    }
    const sending = this.#inner.send(message, sendOptions);
    const tracked = sending.then(() => {}, () => {});
    this.#inFlight.add(tracked);
    tracked.finally(() => this.#inFlight.delete(tracked));
    return sending;
  }

  /** Waits (at most `ms`) for the sends still in flight. */
  async drain(ms: number): Promise<void> {
    if (this.#inFlight.size === 0) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      Promise.allSettled([...this.#inFlight]),
      new Promise((resolve) => timer = setTimeout(resolve, ms)),
    ]);
    clearTimeout(timer);
  }

  close(): Promise<void> {
    return this.#inner.close();
  }
}
