/**
 * A connected session over any channel (stdio or HTTP), through the SDK
 * client: bounded requests that name themselves when they time out (progress
 * notifications restart the bound, up to a hard bound of
 * `HARD_BOUND_FACTOR` × the timeout in all, bounds.ts), server logs and
 * progress handed to the caller, SDK and transport failures turned into
 * jn's typed errors (translate.ts), and a teardown that lets a pending
 * `notifications/cancelled` go out before it ends the session.
 * Tools are listed raw (raw_tools.ts): the SDK still walks the pages and
 * keeps its cache of output schemas, but jn returns each tool exactly as the
 * server sent it.
 *
 * It is over 300 lines because each MCP request of a session is a method of
 * this one class, all through the same bounded, translated path; what
 * surrounds a request lives in its own module (tap, translate, raw_tools,
 * bounds).
 *
 * Why this module is over 300 lines: every protocol verb (list, call, read,
 * get, complete, subscribe) is a thin method over one private request path
 * (bounds, signal, error translation) and one fatal state of the session;
 * split apart, that state would have to be exposed to each of them.
 *
 * @module
 */

import type { Client, RequestOptions } from "@modelcontextprotocol/client";
import { ConnectionError, JnError, ProtocolError } from "../errors.ts";
import { type Channel, findCause } from "./channel.ts";
import type {
  ForwardOptions,
  Session,
  SessionOptions,
  ToolCallOptions,
  WatchFilter,
} from "./types.ts";
import { PASS_THROUGH, relayNotification, Watcher, withoutReservedMeta } from "./relay.ts";
import { CALL_TOOL_RESULT } from "./call_result_schema.ts";
import { SdkTasks } from "./tasks.ts";
import { SdkSkills } from "./skills.ts";
import { TransportTap } from "./tap.ts";
import { bound, HARD_BOUND_FACTOR } from "./bounds.ts";
import { translateError } from "./translate.ts";
import { RawToolListing } from "./raw_tools.ts";
import { type Following, type FollowTarget, startFollowing } from "./follow.ts";
import type {
  CompletionRef,
  CompletionResult,
  JsonObject,
  LogEntry,
  ProgressUpdate,
  PromptInfo,
  PromptResult,
  ResourceContents,
  ResourceInfo,
  ResourceTemplateInfo,
  ServerIdentity,
  ToolCallResult,
  ToolInfo,
} from "../types.ts";

type Sdk = typeof import("@modelcontextprotocol/client");

/** The channels framed one message a line, without HTTP's parameter headers. */
const LINE_CHANNELS: ReadonlySet<Channel["kind"]> = new Set(["stdio", "session"]);

/** How long teardown waits for sends in flight (a cancellation, a last notification). */
const DRAIN_MS = 500;

/** The raw failure of a connect, with its translation (for fallbacks). */
export class ConnectFailure extends Error {
  jnError: JnError;
  raw: unknown;
  /** The server process ended during the connect (stdio). */
  exited: boolean;
  constructor(jnError: JnError, raw: unknown, exited: boolean) {
    super(jnError.message);
    this.jnError = jnError;
    this.raw = raw;
    this.exited = exited;
  }
}

/** A session over one channel. */
export class SdkSession implements Session {
  readonly label: string;
  server: ServerIdentity = { capabilities: {} };
  readonly transportKind: Channel["kind"];
  readonly tasks: SdkTasks;
  readonly skills: SdkSkills;
  #sdk: Sdk;
  #client: Client;
  #channel: Channel;
  #tap: TransportTap;
  #options: SessionOptions;
  #fatal?: JnError;
  #closed?: Promise<void>;
  #tools?: Promise<ToolInfo[]>;
  /**
   * The tools of the current listing that a call may send as a plain request
   * (see {@linkcode SdkSession.callTool}), once that listing has arrived.
   */
  #plainTools?: ReadonlySet<string>;
  /** The options of every request with the session's bounds and no progress handler. */
  #plainOptions?: RequestOptions;
  #rawTools: RawToolListing;
  #watcher?: Watcher;

  constructor(
    sdk: Sdk,
    client: Client,
    channel: Channel,
    options: SessionOptions & {
      label: string;
    },
  ) {
    this.#sdk = sdk;
    this.#client = client;
    this.#channel = channel;
    this.#options = options;
    this.label = options.label;
    this.transportKind = channel.kind;
    this.#rawTools = new RawToolListing(sdk, (message) => options.onNotice?.(message));
    this.tasks = new SdkTasks(
      client,
      (label, run, bounds) => this.#request(label, run, undefined, bounds),
      () => channel.keepSession?.(),
    );
    this.skills = new SdkSkills(client, (label, run) => this.#request(label, run));
    this.#tap = new TransportTap(channel.transport, {
      onTrace: options.onTrace,
      onRequest: options.onRequest,
      logLevel: options.logLevel,
      onToolsPage: (result) => this.#rawTools.page(result),
      onNotification: options.relay && ((method, params) => {
        // A changed tool list is listed again, not served from the cache.
        if (method === "notifications/tools/list_changed") this.#forgetTools();
        relayNotification(options.relay!, method, params);
      }),
      onUnanswered: (method) =>
        this.#fail(
          new ConnectionError(
            `The server "${this.label}" closed the stream of ${method} without answering`,
            { hint: "the server may have crashed or hit a proxy timeout; try again" },
          ),
        ),
    });
    client.onerror = (error) => this.#onError(error);
    client.setNotificationHandler("notifications/message", (notification) => {
      const params = notification.params as LogEntry;
      options.onLog?.({ level: params.level, logger: params.logger, data: params.data });
    });
    const other = options.onOtherNotification;
    if (other) {
      client.fallbackNotificationHandler = (notification) =>
        Promise.resolve(other(notification.method, notification.params as JsonObject | undefined));
    }
  }

  /** The capabilities jn declared to the server (as sent on the wire). */
  get clientCapabilities(): JsonObject {
    return (this.#tap.clientCapabilities ?? {}) as JsonObject;
  }

  /** Connects; throws ConnectFailure (already closed) on failure. */
  async connect(): Promise<void> {
    const client = this.#client;
    try {
      await client.connect(this.#tap, {
        timeout: bound(this.#options.connectTimeoutMs),
        signal: this.#options.signal,
      });
    } catch (error) {
      const jnError = this.#translate(error, "initialize");
      await this.close();
      throw new ConnectFailure(jnError, error, this.#channel.exitStatus() !== undefined);
    }
    const version = client.getServerVersion();
    this.server = {
      name: version?.name,
      version: version?.version,
      protocolVersion: client.getNegotiatedProtocolVersion(),
      era: client.getProtocolEra?.() as ServerIdentity["era"],
      capabilities: (client.getServerCapabilities() ?? {}) as JsonObject,
      instructions: client.getInstructions(),
    };
    const onEnd = this.#options.onEnd;
    if (onEnd) {
      const previous = client.onclose;
      client.onclose = () => {
        previous?.();
        if (this.#closed) return;
        onEnd(
          this.#fatal ??
            (this.#channel.exitStatus()
              ? this.#translate(new Error("exited"), "its session")
              : new ConnectionError(`The server "${this.label}" closed the connection`)),
        );
      };
    }
    // Sent, not awaited: the first real request goes out right behind it
    // instead of one round trip later. A failure is only a warning anyway.
    void this.#setLogLevel();
  }

  /** 2025 era: `logging/setLevel` (2026-07-28: the tap puts the level in each request's envelope). */
  async #setLogLevel(): Promise<void> {
    const level = this.#options.logLevel;
    if (!level || !this.server.capabilities.logging || this.server.era === "modern") return;
    try {
      await this.#client.setLoggingLevel(level as Parameters<Client["setLoggingLevel"]>[0], {
        timeout: bound(this.#options.timeoutMs),
        signal: this.#options.signal,
      });
    } catch (error) {
      if (this.#options.signal?.aborted || this.#closed) return;
      this.#options.onWarning?.(`logging/setLevel failed: ${(error as Error).message}`);
    }
  }

  /** The server's tools; listed once per session (the drift check and the call share it). */
  listTools(): Promise<ToolInfo[]> {
    if (!this.server.capabilities.tools) return Promise.resolve([]);
    if (this.#tools !== undefined) return this.#tools;
    const listing = (async () => {
      this.#rawTools.start();
      const result = await this.#request(
        "tools/list",
        (o) => this.#client.listTools(undefined, o),
      );
      return this.#rawTools.finish(result.tools as ToolInfo[]);
    })();
    this.#tools = listing;
    listing.then(
      (tools) => {
        // Only for the listing still current (a list change may have dropped it meanwhile).
        if (this.#tools === listing) this.#plainTools = plainToolNames(this.transportKind, tools);
      },
      // A failed listing is not cached: a later caller gets its own error.
      () => {
        if (this.#tools === listing) this.#forgetTools();
      },
    );
    return listing;
  }

  /** Drops the cached listing (a failed one, or one the server said has changed). */
  #forgetTools(): void {
    this.#tools = undefined;
    this.#plainTools = undefined;
  }

  leftOutTools(): ReadonlyMap<string, string> {
    return this.#rawTools.leftOut;
  }

  async listResources(): Promise<ResourceInfo[]> {
    if (!this.server.capabilities.resources) return [];
    const result = await this.#request(
      "resources/list",
      (o) => this.#client.listResources(undefined, o),
    );
    return result.resources as ResourceInfo[];
  }

  async listResourceTemplates(): Promise<ResourceTemplateInfo[]> {
    if (!this.server.capabilities.resources) return [];
    const result = await this.#request(
      "resources/templates/list",
      (o) => this.#client.listResourceTemplates(undefined, o),
    );
    return result.resourceTemplates as ResourceTemplateInfo[];
  }

  async listPrompts(): Promise<PromptInfo[]> {
    if (!this.server.capabilities.prompts) return [];
    const result = await this.#request(
      "prompts/list",
      (o) => this.#client.listPrompts(undefined, o),
    );
    return result.prompts as PromptInfo[];
  }

  /**
   * Calls a tool. A call that needs nothing of the SDK's `callTool()` beyond
   * the request itself (see {@linkcode plainToolNames}) is sent through the
   * SDK's `request()` with jn's own cheap result check (call_result_schema.ts)
   * instead of the SDK's zod parse, and, once the listing has arrived,
   * without the general path's awaits and per-call options object (one
   * `then` translates its errors): `put` makes thousands of them.
   */
  callTool(
    name: string,
    args: Record<string, unknown>,
    options: ToolCallOptions = {},
  ): Promise<ToolCallResult> {
    if (this.#plainTools?.has(name) && options.onProgress === undefined) {
      return this.#plainRequest(name, args);
    }
    return this.#callTool(name, args, options);
  }

  /** A plain call (see {@linkcode SdkSession.callTool}): the bounded, translated path, inlined. */
  #plainRequest(name: string, args: Record<string, unknown>): Promise<ToolCallResult> {
    if (this.#fatal) return Promise.reject(this.#fatal);
    const fail = (error: unknown): never => {
      throw this.#translate(error, `tools/call "${name}"`);
    };
    try {
      return this.#client.request(
        { method: "tools/call", params: { name, arguments: args } },
        CALL_TOOL_RESULT,
        // Frozen: the SDK only reads it (tests/session/plain_call_test.ts fails if that changes).
        this.#plainOptions ??= Object.freeze(this.#requestOptions(this.#options.timeoutMs)),
      ).then(undefined, fail);
    } catch (error) {
      return Promise.reject(this.#translate(error, `tools/call "${name}"`));
    }
  }

  async #callTool(
    name: string,
    args: Record<string, unknown>,
    options: ToolCallOptions,
  ): Promise<ToolCallResult> {
    const fast = await this.#plainCall(name);
    const result = await this.#request(
      `tools/call "${name}"`,
      (o): Promise<unknown> =>
        fast
          ? this.#client.request(
            { method: "tools/call", params: { name, arguments: args } },
            CALL_TOOL_RESULT,
            o,
          )
          : this.#client.callTool({ name, arguments: args }, o),
      options.onProgress,
    );
    return result as ToolCallResult;
  }

  async readResource(uri: string): Promise<ResourceContents[]> {
    const result = await this.#request(
      `resources/read "${uri}"`,
      (o) => this.#client.readResource({ uri }, o),
    );
    return result.contents as ResourceContents[];
  }

  async getPrompt(name: string, args: Record<string, string>): Promise<PromptResult> {
    const result = await this.#request(
      `prompts/get "${name}"`,
      (o) => this.#client.getPrompt({ name, arguments: args }, o),
    );
    return result as unknown as PromptResult;
  }

  async complete(
    ref: CompletionRef,
    argument: { name: string; value: string },
    context: Record<string, string> = {},
  ): Promise<CompletionResult> {
    const what = ref.type === "ref/prompt" ? ref.name : ref.uri;
    const params = {
      ref,
      argument,
      ...(Object.keys(context).length > 0 ? { context: { arguments: context } } : {}),
    };
    const result = await this.#request(
      `completion/complete "${what}" ${argument.name}`,
      (o) => this.#client.complete(params, o),
    );
    const completion = result.completion;
    return {
      values: completion.values.map(String),
      ...(completion.total === undefined ? {} : { total: completion.total }),
      ...(completion.hasMore === undefined ? {} : { hasMore: completion.hasMore }),
    };
  }

  async follow(
    what: FollowTarget,
    handlers: { onChange: () => void; onEnd: () => void },
  ): Promise<Following> {
    if (this.#fatal) throw this.#fatal;
    const label = "resource" in what
      ? `resources/subscribe "${what.resource}"`
      : `subscription to ${what.list} changes`;
    try {
      return await startFollowing(this.#client, what, {
        capabilities: this.server.capabilities,
        era: this.server.era,
        server: this.label,
        timeoutMs: this.#options.timeoutMs,
        signal: this.#options.signal,
        onChange: () => {
          // A changed tool list is listed again, not served from the cache.
          if ("list" in what && what.list === "tools") this.#forgetTools();
          handlers.onChange();
        },
        onEnd: handlers.onEnd,
      });
    } catch (error) {
      if (error instanceof JnError) throw error;
      throw this.#translate(error, label);
    }
  }

  /** Whether a call is plain (see {@linkcode plainToolNames}), once this session's listing is in. */
  async #plainCall(name: string): Promise<boolean> {
    if (!LINE_CHANNELS.has(this.transportKind) || this.#tools === undefined) return false;
    // listTools() sets #plainTools when the listing arrives, before this await resumes.
    await this.#tools.catch(() => undefined);
    return this.#plainTools?.has(name) === true;
  }

  async forward(
    method: string,
    params: JsonObject | undefined,
    options: ForwardOptions = {},
  ): Promise<JsonObject> {
    if (this.#fatal) throw this.#fatal;
    const base = this.#requestOptions(options.timeoutMs ?? this.#options.timeoutMs);
    const signals = [base.signal, options.signal].filter((s): s is AbortSignal => s !== undefined);
    const onProgress = options.onProgress;
    try {
      // The tap hands progress over in order with the answer (the SDK's own
      // handler, a turn late, only restarts the request's bound).
      if (onProgress) this.#tap.progressFor((progress) => onProgress(progress as JsonObject));
      let answer: Promise<unknown>;
      try {
        // The SDK sends the request before request() returns: the tap has bound it by then.
        answer = this.#client.request(
          { method, params } as never,
          PASS_THROUGH,
          {
            ...base,
            signal: signals.length > 1 ? AbortSignal.any(signals) : signals[0],
            onprogress: onProgress && (() => {}),
            allowInputRequired: options.inputRequired,
          },
        );
      } finally {
        this.#tap.progressFor(undefined);
      }
      const result = await answer as JsonObject;
      return withoutReservedMeta(result) ?? result;
    } catch (error) {
      throw this.#translate(error, forwardLabel(method, params));
    }
  }

  async notify(method: string, params?: JsonObject): Promise<void> {
    if (this.#fatal) throw this.#fatal;
    try {
      await this.#client.notification({ method, params } as never);
    } catch (error) {
      throw this.#translate(error, method);
    }
  }

  async watch(filter: WatchFilter): Promise<void> {
    if (this.#fatal) throw this.#fatal;
    this.#watcher ??= new Watcher({
      client: this.#client,
      era: this.server.era,
      capabilities: this.server.capabilities,
      timeoutMs: bound(this.#options.timeoutMs),
    });
    try {
      await this.#watcher.watch(filter);
    } catch (error) {
      throw this.#translate(error, "a subscription to the server's changes");
    }
  }

  close(): Promise<void> {
    this.#closed ??= (async () => {
      await this.#watcher?.close();
      await this.#tap.drain(DRAIN_MS);
      await this.#channel.shutdown().catch(() => {});
      try {
        await this.#client.close();
      } catch { /* closing a broken session is best effort */ }
      await this.#channel.close();
    })();
    return this.#closed;
  }

  async #request<T>(
    label: string,
    run: (options: RequestOptions) => Promise<T>,
    onProgress?: (update: ProgressUpdate) => void,
    bounds: { timeoutMs?: number; ignoreSignal?: boolean } = {},
  ): Promise<T> {
    if (this.#fatal) throw this.#fatal;
    try {
      return await run(
        this.#requestOptions(bounds.timeoutMs ?? this.#options.timeoutMs, {
          onProgress,
          ignoreSignal: bounds.ignoreSignal,
        }),
      );
    } catch (error) {
      throw this.#translate(error, label);
    }
  }

  /** The SDK options of a request: its bounds, the session's signal, its progress handler. */
  #requestOptions(
    timeoutMs: number,
    extra: { onProgress?: (update: ProgressUpdate) => void; ignoreSignal?: boolean } = {},
  ): RequestOptions {
    const onProgress = extra.onProgress;
    return {
      timeout: bound(timeoutMs),
      resetTimeoutOnProgress: true,
      maxTotalTimeout: timeoutMs > 0 ? timeoutMs * HARD_BOUND_FACTOR : undefined,
      signal: extra.ignoreSignal ? undefined : this.#options.signal,
      onprogress: onProgress
        ? (p) => onProgress({ progress: p.progress, total: p.total, message: p.message })
        : undefined,
    };
  }

  #onError(error: Error): void {
    if (error instanceof ProtocolError) return this.#fail(error);
    // The SDK's late copy of a progress notification the tap already handed over.
    if (error.message.startsWith("Received a progress notification for an unknown token")) return;
    if (
      this.#channel.kind !== "stdio" &&
      findCause(error, (c) => c instanceof SyntaxError || undefined)
    ) {
      // A garbled stream message may have been the answer someone waits for.
      return this.#fail(this.#translate(error, ""));
    }
    this.#options.onWarning?.(error.message);
  }

  /** Maps whatever the SDK or the transport threw to one of jn's errors. */
  #translate(error: unknown, label: string): JnError {
    return translateError(error, label, {
      sdk: this.#sdk,
      channel: this.#channel,
      server: this.label,
      options: this.#options,
      fatal: this.#fatal,
    });
  }

  /** Fails every request in flight and later with `error`. */
  #fail(error: JnError): void {
    this.#fatal ??= error;
    this.#tap.halt();
    void this.#channel.close();
  }
}

/**
 * The tools of a listing whose calls need nothing of the SDK's `callTool()`
 * beyond the request itself: over stdio or a session's socket (no HTTP parameter headers to
 * mirror), a tool without an outputSchema (no structured content to
 * validate). Then jn sends the request through the SDK with its own cheap
 * result check instead of the SDK's zod parse.
 */
function plainToolNames(kind: Channel["kind"], tools: readonly ToolInfo[]): ReadonlySet<string> {
  const names = new Set<string>();
  if (!LINE_CHANNELS.has(kind)) return names;
  for (const tool of tools) if (tool.outputSchema === undefined) names.add(tool.name);
  // A name listed twice is plain only if every tool of that name is.
  for (const tool of tools) if (tool.outputSchema !== undefined) names.delete(tool.name);
  return names;
}

/** `tools/call "x"`, `resources/read "uri"`, or the method: a forwarded request in messages. */
function forwardLabel(method: string, params: JsonObject | undefined): string {
  const what = params?.name ?? params?.uri;
  return typeof what === "string" ? `${method} "${what}"` : method;
}
