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
 * Three repairs for the 2026-07-28 era and for raw tool listings:
 * - a request that carries the 2026 `_meta` envelope also carries the log
 *   level (`logLevel`), the era's only way to ask for `notifications/message`
 *   (`logging/setLevel` is deprecated there and often unsupported);
 * - a result to such a request without `resultType` is taken as
 *   `"complete"` (SEP-2322: absent means complete), where the SDK would
 *   reject it;
 * - every `tools/list` result goes through `onToolsPage` first, which sees
 *   it exactly as the server sent it and decides what the SDK gets (so one
 *   malformed tool cannot fail the whole listing).
 *
 * A change notification that repeats one handed on since jn's last request is
 * dropped (change_filter.ts). The tap records the capabilities the client
 * declared (in `initialize`, or each 2026-era request) for `inspect`, and
 * exposes `pid`/`stderr` only when the wrapped transport has them (the SDK
 * tells stdio from HTTP by those two properties).
 *
 * It is over 300 lines because each of these watches needs the same two
 * things — what went out (the pending requests, the progress handlers) and
 * what came back, in order — which only the one object between the SDK and
 * the wire sees.
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
import { ChangeFilter } from "./change_filter.ts";

type Message = Parameters<Transport["send"]>[0];
const UNANSWERED_GRACE_MS = 250;
type SendOptions = Parameters<Transport["send"]>[1];

/** What the tap reports. */
export interface TapHooks {
  /** Every JSON-RPC message, both ways. */
  onTrace?: (direction: "send" | "recv", message: unknown) => void;
  /** Every request sent, by method. */
  onRequest?: (method: string) => void;
  /** A request's response stream ended and the request is still unanswered (`tools/call "x"`). */
  onUnanswered?: (request: string) => void;
  /** Added to every request that carries the 2026-07-28 `_meta` envelope. */
  logLevel?: string;
  /**
   * A `tools/list` result as the server sent it (parsed, never copied);
   * returns the result to hand to the SDK instead.
   */
  onToolsPage?: (result: Record<string, unknown>) => Record<string, unknown>;
  /** Every notification of the server as it came (parsed, never copied), before the SDK sees it. */
  onNotification?: (method: string, params: Record<string, unknown> | undefined) => void;
}

/** The `_meta` key of the protocol revision a 2026-era request is sent under. */
const PROTOCOL_VERSION_KEY = "io.modelcontextprotocol/protocolVersion";
/** The `_meta` key of the capabilities a 2026-era request is sent with. */
const CLIENT_CAPABILITIES_KEY = "io.modelcontextprotocol/clientCapabilities";
/** The `_meta` key of a 2026-era request's log level. */
const LOG_LEVEL_KEY = "io.modelcontextprotocol/logLevel";

/** What the tap remembers of a request until its answer arrives. */
interface PendingRequest {
  method: string;
  /** The `name` param (a tool's, a prompt's), for messages. */
  name: unknown;
  /** Sent with the 2026-07-28 envelope. */
  modern: boolean;
}

/** `tools/call "x"`: a pending request in messages. */
function labelOf(request: PendingRequest): string {
  return typeof request.name === "string" ? `${request.method} "${request.name}"` : request.method;
}

/** A transport that reports its traffic. */
export class TransportTap implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport["onmessage"];

  #inner: Transport;
  #hooks: TapHooks;
  #pending = new Map<string | number, PendingRequest>();
  #inFlight = new Set<Promise<void>>();
  #lastSend?: Promise<void>;
  #halted = false;
  #changes = new ChangeFilter();
  /** The inner transport may end a request's response stream (HTTP); a process pipe never does. */
  #streams: boolean;
  /** The capabilities this client declared: in `initialize`, or in each 2026-era request. */
  clientCapabilities?: Record<string, unknown>;
  /** Progress handlers by the token of their request (see {@linkcode TransportTap.progressFor}). */
  #progress = new Map<unknown, (params: Record<string, unknown>) => void>();
  #nextProgress?: (params: Record<string, unknown>) => void;

  constructor(inner: Transport, hooks: TapHooks = {}) {
    this.#inner = inner;
    this.#hooks = hooks;
    this.#streams = !("pid" in inner);
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => this.onerror?.(error);
    inner.onmessage = ((message: Message, extra?: unknown) => {
      hooks.onTrace?.("recv", message);
      const received = message as unknown as Record<string, unknown>;
      if (this.#halted || this.#changes.repeats(received)) return;
      const checked = this.#check(received);
      if (checked === undefined) return;
      if (checked.method === "notifications/progress" && this.#progress.size > 0) {
        const { progressToken, ...params } = (checked.params ?? {}) as Record<string, unknown>;
        this.#progress.get(progressToken)?.(params);
      }
      if (hooks.onNotification && typeof checked.method === "string" && !("id" in checked)) {
        hooks.onNotification(checked.method, checked.params as Record<string, unknown> | undefined);
      }
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
    const request = id === undefined ? undefined : this.#pending.get(id);
    if (id !== undefined) {
      this.#pending.delete(id);
      this.#progress.delete(id);
    }
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
    if (!response.ok) return malformedStandIn(id, response.problem);
    const checked = response.message;
    const result = checked.result as Record<string, unknown> | undefined;
    const repaired = result === undefined || request === undefined
      ? result
      : this.#repair(result, request);
    // The common case (put: thousands): checkResponse()'s message as it is, without a second copy.
    if (repaired === result && checked.id === id) return checked;
    return repaired === undefined ? { ...checked, id } : { ...checked, id, result: repaired };
  }

  /** A result as the SDK should see it (the server's own object is left as it is). */
  #repair(result: Record<string, unknown>, request: PendingRequest): Record<string, unknown> {
    let repaired = result;
    if (request.method === "tools/list" && this.#hooks.onToolsPage) {
      repaired = this.#hooks.onToolsPage(result);
    }
    if (request.modern && !Object.hasOwn(repaired, "resultType")) {
      repaired = { ...repaired, resultType: "complete" };
    }
    return repaired;
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
   * Hands the progress notifications of the next request sent to `handler`,
   * as they arrive, in order with the rest of the traffic (`undefined`: no
   * longer; the caller clears it once its request is sent). The SDK hands
   * them on a turn later, after an answer read in the same chunk has already
   * ended the request — so its own handler misses the last one; a proxy
   * must not.
   */
  progressFor(handler: ((params: Record<string, unknown>) => void) | undefined): void {
    this.#nextProgress = handler;
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
    message = this.#withLogLevel(message);
    this.#hooks.onTrace?.("send", message);
    const request = message as {
      id?: string | number;
      method?: string;
      params?: { name?: unknown; capabilities?: unknown; _meta?: Record<string, unknown> };
    };
    const declared = request.method === "initialize"
      ? request.params?.capabilities
      : request.params?._meta?.[CLIENT_CAPABILITIES_KEY];
    if (isObject(declared)) this.clientCapabilities = declared;
    const handler = this.#nextProgress;
    if (handler && request.id !== undefined) {
      this.#nextProgress = undefined;
      const token = (request.params?._meta as Record<string, unknown> | undefined)?.progressToken;
      // The SDK's token is the request's id: the answer to it ends the handler.
      if (token !== undefined) this.#progress.set(token, handler);
    }
    let sendOptions = options;
    if (request.id !== undefined && typeof request.method === "string") {
      this.#changes.requestSent();
      this.#hooks.onRequest?.(request.method);
      const id = request.id;
      this.#pending.set(id, {
        method: request.method,
        name: request.params?.name,
        modern: isModern(request.params?._meta),
      });
      if (this.#streams) {
        sendOptions = {
          ...options,
          onRequestStreamEnd: () => {
            options?.onRequestStreamEnd?.();
            // The answer may still come on another stream (a resumed GET): give it a moment.
            setTimeout(() => {
              const pending = this.#pending.get(id);
              if (pending !== undefined) this.#hooks.onUnanswered?.(labelOf(pending));
            }, UNANSWERED_GRACE_MS);
          },
        } as SendOptions;
      }
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

  /** A 2026-era request with the log level in its envelope (a copy; others as they are). */
  #withLogLevel(message: Message): Message {
    const level = this.#hooks.logLevel;
    const request = message as {
      id?: unknown;
      method?: unknown;
      params?: { _meta?: Record<string, unknown> };
    };
    const meta = request.params?._meta;
    const isRequest = request.id !== undefined && typeof request.method === "string";
    if (level === undefined || !isRequest || !isModern(meta)) return message;
    if (Object.hasOwn(meta!, LOG_LEVEL_KEY)) return message;
    return {
      ...message,
      params: { ...request.params, _meta: { ...meta, [LOG_LEVEL_KEY]: level } },
    } as Message;
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

/** Whether a request's `_meta` is the 2026-07-28 envelope. */
function isModern(meta: Record<string, unknown> | undefined): boolean {
  return typeof meta === "object" && meta !== null &&
    typeof meta[PROTOCOL_VERSION_KEY] === "string";
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
