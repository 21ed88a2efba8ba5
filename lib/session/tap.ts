/**
 * A transparent wrapper around an MCP transport that watches the traffic:
 * every message both ways (for `--debug`), the sends still in flight (so a
 * teardown can let a `notifications/cancelled` go out before ending the
 * session), and requests whose HTTP response stream ended without an answer
 * (a server that closed the stream mid-call would otherwise leave the call
 * hanging until its timeout). It also guards the SDK against what it does
 * not survive (message_check.ts): a malformed answer to a pending request
 * becomes an error of that request at once, instead of being dropped while
 * the request waits for its timeout; a message nested deeper than
 * `MAX_JSON_DEPTH` fails its request, or the session when it answers none.
 *
 * The wrapper exposes `pid`/`stderr` only when the wrapped transport has
 * them, because the SDK tells stdio from HTTP by those two properties.
 *
 * @module
 */

import type { Transport } from "@modelcontextprotocol/client";
import { ProtocolError } from "../errors.ts";
import {
  checkResponse,
  malformedStandIn,
  MAX_JSON_DEPTH,
  nestsDeeperThan,
} from "./message_check.ts";

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
  #lastSend?: Promise<void>;
  #halted = false;

  constructor(inner: Transport, hooks: TapHooks = {}) {
    this.#inner = inner;
    this.#hooks = hooks;
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => this.onerror?.(error);
    inner.onmessage = ((message: Message, extra?: unknown) => {
      hooks.onTrace?.("recv", message);
      if (this.#halted) return;
      const checked = this.#check(message as unknown as Record<string, unknown>);
      if (checked === undefined) return;
      (this.onmessage as (m: Message, e?: unknown) => void)?.(checked as Message, extra);
    }) as Transport["onmessage"];
    for (const key of ["pid", "stderr"] as const) {
      if (key in inner) {
        Object.defineProperty(this, key, { get: () => (inner as never)[key], enumerable: true });
      }
    }
  }

  /** The message to hand to the SDK, or undefined when it is dropped (and reported). */
  #check(message: Record<string, unknown>): Record<string, unknown> | undefined {
    const isResponse = !("method" in message);
    const id = isResponse ? this.#pendingKey(message.id) : undefined;
    if (id !== undefined) this.#pending.delete(id);
    if (nestsDeeperThan(message, MAX_JSON_DEPTH)) {
      const deep = `nests more than ${MAX_JSON_DEPTH} levels deep`;
      if (id !== undefined) return malformedStandIn(id, `it ${deep}`);
      const what = typeof message.method === "string" ? ` (${message.method})` : "";
      this.onerror?.(
        new ProtocolError(`The server sent a message${what} that ${deep}`, {
          hint: "the server is broken or hostile; jn stopped talking to it",
        }),
      );
      return undefined;
    }
    if (id === undefined) return message;
    const response = checkResponse(message);
    return response.ok ? { ...response.message, id } : malformedStandIn(id, response.problem);
  }

  /** The id of the pending request a response answers (the SDK matches `"1"` to `1` too). */
  #pendingKey(id: unknown): string | number | undefined {
    if (typeof id !== "string" && typeof id !== "number") return undefined;
    if (this.#pending.has(id)) return id;
    if (typeof id === "string" && /^\d+$/.test(id) && this.#pending.has(Number(id))) {
      return Number(id);
    }
    return undefined;
  }

  /**
   * Delivers nothing more to the SDK: the session failed (a protocol
   * violation), so an answer still queued behind the violation must not
   * make a request look successful.
   */
  halt(): void {
    this.#halted = true;
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
    // Messages sent in one turn share one write (and one promise) over
    // stdio: track each write once, not each message (put sends thousands).
    if (sending !== this.#lastSend) {
      this.#lastSend = sending;
      const tracked = sending.then(() => {}, () => {});
      this.#inFlight.add(tracked);
      tracked.finally(() => this.#inFlight.delete(tracked));
    }
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
