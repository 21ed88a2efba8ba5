/**
 * One MCP session with one server, through the official SDK. This directory is
 * the only place that imports `@modelcontextprotocol/client`; it is loaded
 * lazily so that commands which talk to no server never pay for it.
 *
 * Guarantees: every request is bounded by a timeout and names itself when it
 * times out; SDK errors become jn's typed errors (lib/errors.ts); `close()` is
 * idempotent and ends the server's whole process tree.
 *
 * @module
 */

import type { Client, Transport } from "@modelcontextprotocol/client";
import {
  ConnectionError,
  InterruptedError,
  JnError,
  LaunchError,
  ProtocolError,
  TimeoutError,
} from "../errors.ts";
import type { LaunchSpec, StdioLaunch } from "../launch/spec.ts";
import { childEnvironment } from "../sandbox/env.ts";
import { VERSION } from "../version.ts";
import { ProcessTransport } from "./process_transport.ts";
import type {
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
} from "./types.ts";

/** Which protocol era to speak: negotiate (default), 2025 only, or one pinned revision. */
export type ProtocolMode = "auto" | "legacy" | { pin: string };

/** Options of {@linkcode openSession}. */
export interface SessionOptions {
  /** Bound of each request in ms (progress resets it); 0 disables it. */
  timeoutMs: number;
  /** Bound of the handshake in ms; 0 disables it. */
  connectTimeoutMs: number;
  /** The caller's environment, from which the child's is built. */
  callerEnv: Record<string, string>;
  /** Protocol era negotiation. Default `"auto"`. */
  protocol?: ProtocolMode;
  /** How long the era probe may take on stdio before falling back to 2025 (ms). */
  probeTimeoutMs?: number;
  /** Aborting it cancels requests in flight (`notifications/cancelled`) and fails with InterruptedError. */
  signal?: AbortSignal;
  /** Live server stderr (e.g. for `--debug`); a tail is always kept for error messages. */
  onStderr?: (text: string) => void;
  /** Non-JSON lines the server wrote to stdout. */
  onNoise?: (line: string) => void;
  /** `notifications/message` from the server. */
  onLog?: (entry: LogEntry) => void;
  /** Every JSON-RPC message, both ways (for `--debug`). */
  onTrace?: (direction: "send" | "recv", message: unknown) => void;
  /** Out-of-band problems that do not fail the run (stale responses and the like). */
  onWarning?: (message: string) => void;
}

/** Per-call options. */
export interface CallOptions {
  /** Progress notifications of this request. */
  onProgress?: (update: ProgressUpdate) => void;
}

/** An open session. Close it in `finally`. */
export interface Session {
  /** A short name of the server for messages. */
  readonly label: string;
  /** What the server said about itself. */
  readonly server: ServerIdentity;
  listTools(): Promise<ToolInfo[]>;
  listResources(): Promise<ResourceInfo[]>;
  listResourceTemplates(): Promise<ResourceTemplateInfo[]>;
  listPrompts(): Promise<PromptInfo[]>;
  callTool(
    name: string,
    args: Record<string, unknown>,
    options?: CallOptions,
  ): Promise<ToolCallResult>;
  readResource(uri: string): Promise<ResourceContents[]>;
  getPrompt(name: string, args: Record<string, string>): Promise<PromptResult>;
  /** Ends the session and the server's process tree. Idempotent. */
  close(): Promise<void>;
}

type Sdk = typeof import("@modelcontextprotocol/client");

let sdkPromise: Promise<Sdk> | undefined;
function loadSdk(): Promise<Sdk> {
  sdkPromise ??= import("@modelcontextprotocol/client");
  return sdkPromise;
}

/** Connects to the server a launch spec describes. */
export async function openSession(launch: LaunchSpec, options: SessionOptions): Promise<Session> {
  const sdk = await loadSdk();
  const mode = options.protocol ?? "auto";
  try {
    return await connectOnce(sdk, launch, options, mode);
  } catch (error) {
    // A server that exits on the era probe is a 2025 server: start it again
    // and speak 2025 from the first message.
    if (mode === "auto" && launch.transport === "stdio" && error instanceof ClosedDuringConnect) {
      return await connectOnce(sdk, launch, options, "legacy");
    }
    throw error instanceof ClosedDuringConnect ? error.jnError : error;
  }
}

class ClosedDuringConnect extends Error {
  jnError: JnError;
  constructor(jnError: JnError) {
    super(jnError.message);
    this.jnError = jnError;
  }
}

async function connectOnce(
  sdk: Sdk,
  launch: LaunchSpec,
  options: SessionOptions,
  mode: ProtocolMode,
): Promise<Session> {
  if (launch.transport !== "stdio") {
    throw new ConnectionError(`The ${launch.transport} transport is not supported yet`);
  }
  const transport = new ProcessTransport(launch, {
    env: childEnvironment({
      callerEnv: options.callerEnv,
      declared: launch.env,
      passthrough: launch.envPassthrough,
    }),
    onStderr: options.onStderr,
    onNoise: options.onNoise,
  });
  const client = new sdk.Client({ name: "jn", version: VERSION }, {
    capabilities: {},
    versionNegotiation: mode === "legacy" ? { mode: "legacy" } : {
      mode,
      probe: { timeoutMs: options.probeTimeoutMs ?? 3000 },
    },
  });
  const session = new SdkSession(sdk, client, transport, launch, options);
  await session.connect(mode);
  return session;
}

class SdkSession implements Session {
  readonly label: string;
  server: ServerIdentity = { capabilities: {} };
  #sdk: Sdk;
  #client: Client;
  #transport: ProcessTransport;
  #launch: StdioLaunch;
  #options: SessionOptions;
  #fatal?: JnError;
  #closed?: Promise<void>;
  #tools?: Promise<ToolInfo[]>;

  constructor(
    sdk: Sdk,
    client: Client,
    transport: ProcessTransport,
    launch: StdioLaunch,
    options: SessionOptions,
  ) {
    this.#sdk = sdk;
    this.#client = client;
    this.#transport = transport;
    this.#launch = launch;
    this.#options = options;
    this.label = launch.label;
    client.onerror = (error) => this.#onError(error);
    client.setNotificationHandler("notifications/message", (notification) => {
      const params = notification.params as LogEntry;
      options.onLog?.({ level: params.level, logger: params.logger, data: params.data });
    });
    if (options.onTrace) traceTransport(transport, options.onTrace);
  }

  async connect(mode: ProtocolMode): Promise<void> {
    try {
      await this.#client.connect(this.#transport as Transport, {
        timeout: bound(this.#options.connectTimeoutMs),
        signal: this.#options.signal,
      });
    } catch (error) {
      const jnError = this.#translate(error, "initialize");
      await this.close();
      if (mode === "auto" && this.#transport.exitStatus() && !(error instanceof JnError)) {
        throw new ClosedDuringConnect(jnError);
      }
      throw jnError;
    }
    const client = this.#client;
    const version = client.getServerVersion();
    this.server = {
      name: version?.name,
      version: version?.version,
      protocolVersion: client.getNegotiatedProtocolVersion(),
      era: client.getProtocolEra?.() as ServerIdentity["era"],
      capabilities: (client.getServerCapabilities() ?? {}) as JsonObject,
      instructions: client.getInstructions(),
    };
  }

  /** The server's tools; listed once per session (the drift check and the call share it). */
  listTools(): Promise<ToolInfo[]> {
    if (!this.server.capabilities.tools) return Promise.resolve([]);
    this.#tools ??= this.#request("tools/list", (o) => this.#client.listTools(undefined, o))
      .then((result) => result.tools as ToolInfo[]);
    // A failed listing is not cached: a later caller gets its own error.
    this.#tools.catch(() => this.#tools = undefined);
    return this.#tools;
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

  async callTool(
    name: string,
    args: Record<string, unknown>,
    options: CallOptions = {},
  ): Promise<ToolCallResult> {
    const result = await this.#request(
      `tools/call "${name}"`,
      (o) => this.#client.callTool({ name, arguments: args }, o),
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

  close(): Promise<void> {
    this.#closed ??= (async () => {
      try {
        await this.#client.close();
      } catch { /* closing a broken session is best effort */ }
      await this.#transport.close();
    })();
    return this.#closed;
  }

  async #request<T>(
    label: string,
    run: (options: import("@modelcontextprotocol/client").RequestOptions) => Promise<T>,
    onProgress?: (update: ProgressUpdate) => void,
  ): Promise<T> {
    if (this.#fatal) throw this.#fatal;
    try {
      return await run({
        timeout: bound(this.#options.timeoutMs),
        resetTimeoutOnProgress: true,
        signal: this.#options.signal,
        onprogress: onProgress
          ? (p) => onProgress({ progress: p.progress, total: p.total, message: p.message })
          : undefined,
      });
    } catch (error) {
      throw this.#translate(error, label);
    }
  }

  #onError(error: Error): void {
    if (error instanceof ProtocolError) {
      // A garbled message may have been the answer someone waits for: fail fast.
      this.#fatal ??= error;
      void this.#transport.close();
      return;
    }
    this.#options.onWarning?.(error.message);
  }

  /** Maps whatever the SDK or the transport threw to one of jn's errors. */
  #translate(error: unknown, label: string): JnError {
    if (this.#options.signal?.aborted) return new InterruptedError();
    if (this.#fatal) return this.#fatal;
    if (error instanceof JnError) return error;
    const sdk = this.#sdk;
    const tail = this.#transport.stderrTail() || undefined;
    const noise = this.#transport.firstNoise;
    if (noise !== undefined && this.#transport.received === 0) {
      // Silence plus text on stdout: the server speaks something, just not JSON-RPC.
      return new ProtocolError(
        `The server wrote text that is not JSON-RPC to stdout instead of answering ${label}: ${
          JSON.stringify(noise.slice(0, 120))
        }`,
        {
          cause: error,
          hint:
            "an MCP stdio server must write only JSON-RPC messages to stdout (logs belong on stderr)",
        },
      );
    }
    if (error instanceof sdk.ProtocolError) {
      return new ProtocolError(
        `The server answered ${label} with error ${error.code}: ${error.message}`,
        { code: error.code, data: error.data, cause: error },
      );
    }
    if (error instanceof sdk.SdkError) {
      switch (error.code) {
        case sdk.SdkErrorCode.RequestTimeout:
          return new TimeoutError(label, this.#timeoutFor(label), {
            cause: error,
            hint: label === "initialize"
              ? "a server that starts slowly (first npx/uvx download) needs --connect-timeout 5m"
              : "raise the bound with --timeout (e.g. --timeout 5m), or --timeout 0 for none",
          });
        case sdk.SdkErrorCode.ConnectionClosed:
        case sdk.SdkErrorCode.NotConnected:
        case sdk.SdkErrorCode.SendFailed:
          return this.#exitedError(label, error, tail);
        case sdk.SdkErrorCode.InvalidResult:
        case sdk.SdkErrorCode.UnsupportedResultType:
          return new ProtocolError(
            `The server sent a malformed answer to ${label}: ${error.message}`,
            { cause: error },
          );
        default:
          return new ProtocolError(`${label} failed: ${error.message}`, { cause: error });
      }
    }
    if ((error as Error)?.name === "AbortError") return new InterruptedError();
    if (this.#transport.exitStatus()) return this.#exitedError(label, error, tail);
    return new ProtocolError(`${label} failed: ${(error as Error)?.message ?? error}`, {
      cause: error,
    });
  }

  #timeoutFor(label: string): number {
    return label === "initialize" ? this.#options.connectTimeoutMs : this.#options.timeoutMs;
  }

  #exitedError(label: string, cause: unknown, stderrTail: string | undefined): JnError {
    const status = this.#transport.exitStatus();
    const how = status === undefined
      ? "closed the connection"
      : status.signal
      ? `was killed by ${status.signal}`
      : `exited with code ${status.code}`;
    const what = label === "initialize" ? "before the MCP handshake completed" : `during ${label}`;
    const Kind = label === "initialize" ? LaunchError : ConnectionError;
    return new Kind(`The server "${this.#launch.label}" ${how} ${what}`, {
      cause,
      stderrTail,
      hint: stderrTail ? undefined : "run the server command by hand to see why it stops",
    });
  }
}

function bound(ms: number): number | undefined {
  // The SDK treats a missing timeout as its 60 s default: "no limit" is a very large one.
  return ms > 0 ? ms : 2 ** 31 - 1;
}

function traceTransport(
  transport: ProcessTransport,
  onTrace: (direction: "send" | "recv", message: unknown) => void,
): void {
  const send = transport.send.bind(transport);
  transport.send = (message) => {
    onTrace("send", message);
    return send(message);
  };
  let inner = transport.onmessage;
  Object.defineProperty(transport, "onmessage", {
    get: () =>
      inner && ((message: unknown, extra: unknown) => {
        onTrace("recv", message);
        (inner as (m: unknown, e: unknown) => void)(message, extra);
      }),
    set: (handler) => {
      inner = handler;
    },
  });
}
