/**
 * lib/session: one MCP session, the only importer of the MCP SDK: transports,
 * process trees, OAuth fetch, timeouts.
 *
 * One MCP session with one server, through the official SDK. This directory is
 * the only place that imports `@modelcontextprotocol/client`; it is loaded
 * lazily so that commands which talk to no server never pay for it.
 *
 * Guarantees: every request is bounded by a timeout and names itself when it
 * times out; SDK errors become jn's typed errors (lib/errors.ts); `close()` is
 * idempotent and ends the server's whole process tree (stdio) or its HTTP
 * session (remote). Remote servers are reached over Streamable HTTP, falling
 * back to legacy SSE when the first POST is refused with a 4xx (see
 * `fallsBackToSse`); cleartext HTTP is refused unless the host is loopback or
 * the caller allows it. The HTTP and OAuth modules load for a remote server
 * only (dynamic `import()`): a stdio session does not evaluate them.
 *
 * @module
 */

import { JnError, UsageError } from "../errors.ts";
import type { HttpLaunch, LaunchSpec, StdioLaunch } from "../launch/spec.ts";
import { childEnvironment } from "../sandbox/env.ts";
import { type Channel, StdioChannel } from "./channel.ts";
import { createClient } from "./client_setup.ts";
import { bound } from "./bounds.ts";
import { ConnectFailure, SdkSession } from "./sdk_session.ts";
import type { SessionConn } from "./socket_channel.ts";
import type { ProtocolMode, Session, SessionOptions } from "./types.ts";

export type {
  ForwardOptions,
  LoginSettings,
  ProtocolMode,
  Relay,
  Session,
  SessionAuth,
  SessionOptions,
  ToolCallOptions,
  WatchFilter,
} from "./types.ts";

type Sdk = typeof import("@modelcontextprotocol/client");

let sdkPromise: Promise<Sdk> | undefined;
function loadSdk(): Promise<Sdk> {
  sdkPromise ??= import("@modelcontextprotocol/client");
  return sdkPromise;
}

/** Connects to the server a launch spec describes. */
export async function openSession(launch: LaunchSpec, options: SessionOptions): Promise<Session> {
  if (launch.transport !== "stdio") return await openHttp(await loadSdk(), launch, options);
  // Start the server first: its start-up overlaps the SDK's module loading.
  const first = stdioChannel(launch, options);
  first.transport.prestart();
  let sdk: Sdk;
  try {
    sdk = await loadSdk();
  } catch (error) {
    await first.close();
    throw error;
  }
  return await openStdio(sdk, launch, options, first);
}

/**
 * Connects to a jn session's socket (lib/client/session_lookup.ts found it):
 * the session's server, reached through its proxy, in the era given
 * (`legacy` for a session whose server speaks 2025, so that what it asks
 * during a call reaches this client as the server asked it); `connectTo`
 * reaches the socket another way (memory, in the session's own process).
 */
export async function openSocketSession(
  path: string,
  label: string,
  options: SessionOptions,
  connectTo?: () => Promise<SessionConn>,
): Promise<Session> {
  const { SocketChannel } = await import("./socket_channel.ts");
  const sdk = await loadSdk();
  const mode = options.protocol ?? "auto";
  const probe = bound(options.connectTimeoutMs);
  const channel = new SocketChannel(path, label, connectTo);
  return await connect(sdk, channel, label, options, mode, probe)
    .catch(unwrap);
}

function stdioChannel(launch: StdioLaunch, options: SessionOptions): StdioChannel {
  return new StdioChannel(launch, {
    env: childEnvironment({
      callerEnv: options.callerEnv,
      declared: launch.env,
      passthrough: launch.envPassthrough,
    }),
    onStderr: options.onStderr,
    onNoise: options.onNoise,
  });
}

async function openStdio(
  sdk: Sdk,
  launch: StdioLaunch,
  options: SessionOptions,
  first: StdioChannel,
): Promise<Session> {
  const mode = options.protocol ?? "auto";
  const channel = () => stdioChannel(launch, options);
  const connectBound = options.connectTimeoutMs;
  const probe = Math.min(
    options.probeTimeoutMs ?? 3000,
    connectBound > 0 ? connectBound : Infinity,
  );
  const started = Date.now();
  try {
    return await connect(sdk, first, launch.label, options, mode, probe);
  } catch (error) {
    if (!(error instanceof ConnectFailure)) throw error;
    // A server that exits on the era probe is a 2025 server: start it again
    // and speak 2025 from the first message — within what is left of the
    // connect bound, which covers both attempts.
    const left = connectBound > 0 ? connectBound - (Date.now() - started) : 0;
    if (
      mode === "auto" && error.exited && !(error.raw instanceof JnError) &&
      (connectBound === 0 || left > 0)
    ) {
      const retry = { ...options, connectTimeoutMs: connectBound === 0 ? 0 : left };
      return await connect(sdk, channel(), launch.label, retry, "legacy", probe).catch(unwrap);
    }
    throw error.jnError;
  }
}

async function openHttp(sdk: Sdk, launch: HttpLaunch, options: SessionOptions): Promise<Session> {
  const { fallsBackToSse, HttpChannel, isLoopback } = await import("./http_channel.ts");
  const url = new URL(launch.url);
  if (url.protocol === "http:" && !isLoopback(url.hostname) && !options.allowHttp) {
    throw new UsageError(
      `Refusing cleartext HTTP to "${url.host}": requests, tokens and results would travel unencrypted`,
      { hint: "use mcp+https://, or pass --allow-http if this network is trusted" },
    );
  }
  const fetch = await authorizingFetch(sdk, launch, options);
  const mode = options.protocol ?? "auto";
  const probe = bound(options.connectTimeoutMs);
  const channel = (kind: "streamable-http" | "sse") =>
    new HttpChannel(sdk, launch.url, {
      kind,
      headers: launch.headers,
      fetch,
      credentials: Object.keys(launch.headers).some((h) => h.toLowerCase() === "authorization"),
      sessionId: kind === "streamable-http" ? options.resumeSession : undefined,
    });
  if (launch.transport === "sse") {
    return await connect(sdk, channel("sse"), launch.label, options, mode, probe).catch(unwrap);
  }
  try {
    return await connect(sdk, channel("streamable-http"), launch.label, options, mode, probe);
  } catch (error) {
    if (!(error instanceof ConnectFailure)) throw error;
    if (!fallsBackToSse(sdk, error.raw)) throw error.jnError;
    options.onFallback?.(error.jnError.message);
    // The era probe went out on the first POST already, and legacy SSE is a
    // 2025 transport: over SSE, `initialize` comes first (unless a revision is pinned).
    const sseMode = mode === "auto" ? "legacy" : mode;
    try {
      return await connect(sdk, channel("sse"), launch.label, options, sseMode, probe);
    } catch (sseError) {
      // Neither worked: the Streamable HTTP answer is the one to explain.
      if (sseError instanceof ConnectFailure) {
        error.jnError.hint ??= `the legacy SSE fallback failed too: ${sseError.jnError.message}`;
      }
      throw error.jnError;
    }
  }
}

async function authorizingFetch(sdk: Sdk, launch: HttpLaunch, options: SessionOptions) {
  const auth = options.auth;
  if (!auth) return undefined;
  if (Object.keys(launch.headers).some((name) => name.toLowerCase() === "authorization")) {
    return undefined;
  }
  const [{ createAuthFetch }, { JnOAuthProvider }] = await Promise.all([
    import("./oauth_fetch.ts"),
    import("./oauth_provider.ts"),
  ]);
  const provider = await JnOAuthProvider.load(auth.store, launch.url, {
    interactive: auth.interactive,
    onSignIn: auth.onSignIn,
    signal: options.signal,
    env: options.callerEnv,
    onSecret: auth.onSecret,
  });
  if (auth.login) provider.startOver(auth.login);
  return createAuthFetch(sdk, { serverUrl: launch.url, provider, onWarning: options.onWarning });
}

async function connect(
  sdk: Sdk,
  channel: Channel,
  label: string,
  options: SessionOptions,
  mode: ProtocolMode,
  probeTimeoutMs: number,
): Promise<Session> {
  let session: SdkSession;
  try {
    const client = createClient(sdk, {
      mode,
      probeTimeoutMs,
      offerVersion: options.offerVersion,
      onElicit: options.onElicit,
      onSample: options.onSample,
      roots: options.roots,
      onNotice: options.onNotice,
      relay: options.relay,
    });
    session = new SdkSession(sdk, client, channel, { ...options, label });
  } catch (error) {
    // The channel may already run a (prestarted) server.
    await channel.close();
    throw error;
  }
  await session.connect();
  return session;
}

function unwrap(error: unknown): never {
  throw error instanceof ConnectFailure ? error.jnError : error;
}
