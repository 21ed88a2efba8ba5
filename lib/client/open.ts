/**
 * Opening a connection: the one path from a source to a live session, with
 * every policy that makes jn safe and correct applied on the way, for the
 * CLI and for a program using jn as a library alike:
 *
 * 1. resolve the source (a project profile only when trusted: resolve.ts);
 * 2. headers, token, OAuth, roots, elicitation (remote.ts) and sampling
 *    (sampling.ts: the caller's callback or a command), within a budget of
 *    questions per call (questions.ts);
 * 3. the sandbox — the profile's merged with the caller's — Deno
 *    permissions and the variables passed through by name (sandbox.ts); the
 *    server gets a minimal environment (lib/sandbox/env.ts);
 * 4. connect (lib/session), with server logs filtered by level and every
 *    text handed to the caller redacted;
 * 5. the profile's schema drift check (lib/drift): `warn` reports through
 *    `events.onDrift`, `error` on breaking changes throws a DriftError.
 *
 * Guarantees: a failure on the way leaves no server running; its error is
 * explained (what a sandbox withheld) and redacted.
 *
 * What a call does not need is not loaded (dynamic `import()` at its point
 * of need, literal so that `deno compile` and the bundle see it): the drift
 * check only for a profile (here), profile resolution and trust only for a
 * profile reference, each launcher only for its URIs (resolve.ts), the
 * sandbox's plan only for a sandboxed server (sandbox.ts). Every check still
 * runs wherever it applies: only the loading of its code waits.
 *
 * @module
 */

import { redact, redactDeep } from "../output/redact.ts";
import { LineSplitter } from "../ndjson/split.ts";
import { openSession, openSocketSession } from "../session/session.ts";
import type { ServerWrites } from "../sandbox/sampling_view.ts";
import { SamplingOverflow } from "../session/sampling.ts";
import type { ProtocolMode, Relay, Session, SessionOptions } from "../session/types.ts";
import { mergePolicies } from "../sandbox/policy.ts";
import type { Source } from "../uri/source.ts";
import { Connection, explainError } from "./connection.ts";
import {
  type ClientEvents,
  levelAtLeast,
  OPEN_DEFAULTS,
  type OpenOptions,
  type SandboxInfo,
  type SessionUse,
} from "./options.ts";
import { sessionSettings } from "./remote.ts";
import { resolveTarget, type Target } from "./resolve.ts";
import { QuestionBudget } from "./questions.ts";
import { samplingHandler } from "./sampling.ts";
import { sandboxedLaunch } from "./sandbox.ts";
import { findSession, type FoundSession, resumedSession, sessionGone } from "./session_lookup.ts";
import { unmarkFailure, unmarkNotice } from "./session_errors.ts";
import { localConnector } from "./session_local.ts";

/**
 * Connects to a server: a naked URI, a profile reference, or an already
 * resolved target. Close the connection in `finally` (or `await using`).
 *
 * @example
 * ```ts
 * import { open } from "@jn/jn";
 *
 * const conn = await open("@demo", { cwd: Deno.cwd(), env: Deno.env.toObject() });
 * try {
 *   console.log(conn.session.server.name, conn.sandbox?.policy);
 * } finally {
 *   await conn.close();
 * }
 * ```
 */
export async function open(
  target: string | Source | Target,
  options: OpenOptions,
): Promise<Connection> {
  const resolved = isTarget(target) ? target : await resolveTarget(target, options);
  const settings = await sessionSettings(resolved, options);
  const secrets = settings.secrets;
  // A detached task's HTTP session is joined, not opened: no handshake, no tools to check.
  const resumeSession = resumedSession(resolved);
  const events = options.events ?? {};
  const stderr = events.onStderr && stderrLines(events.onStderr, secrets);
  // Ends a sampling command still running when the connection closes.
  const samplingStop = new AbortController();
  let sandbox: SandboxInfo | undefined;
  let writes: ServerWrites | undefined | (() => Promise<ServerWrites | undefined>);
  // A profile's sampling command is kept from what the confined server may write.
  const onSample = samplingHandler(
    resolved,
    options,
    samplingStop.signal,
    () => typeof writes === "function" ? writes() : writes,
  );
  const questions = new QuestionBudget(events.onNotice);
  const ended = () => {
    samplingStop.abort();
    stderr?.end();
  };
  let session: Session | undefined;
  let found: FoundSession | undefined;
  try {
    // A running session of this source with the same launch options serves the call (not the
    // resumption of a task in an HTTP session of its own).
    if (resumeSession === undefined) found = await findSession(resolved, options, settings);
    let launch = settings.launch;
    if (found === undefined) {
      const prepared = await sandboxedLaunch(resolved, options, settings.launch);
      sandbox = prepared.sandbox;
      writes = prepared.writes;
      launch = prepared.launch;
      await events.onPrepared?.({ launch, sandbox, secrets });
    } else {
      const policy = mergePolicies(resolved.sandbox, options.sandbox);
      sandbox = policy && { policy };
      // The session's process launched the server, from these very launch options: where it may
      // write is worked out the same way, once a profile's sampling command needs it.
      writes = once(async () =>
        (await sandboxedLaunch(resolved, { ...options, events: undefined }, settings.launch))
          .writes
      );
    }
    const logLevel = options.logLevel ?? OPEN_DEFAULTS.logLevel;
    const sessionOptions: SessionOptions = {
      ...settings.options,
      // Past the budget a question is refused unasked (questions.ts).
      onElicit: questions.guard(
        settings.options.onElicit,
        () => Promise.resolve({ action: "decline" }),
      ),
      onSample: questions.guard(
        onSample,
        () => Promise.reject(new SamplingOverflow("too many questions")),
      ),
      onRequest: (method) => questions.sent(method),
      logLevel,
      timeoutMs: options.timeoutMs ?? OPEN_DEFAULTS.timeoutMs,
      connectTimeoutMs: options.connectTimeoutMs ?? OPEN_DEFAULTS.connectTimeoutMs,
      callerEnv: options.env,
      protocol: options.protocol ?? OPEN_DEFAULTS.protocol,
      signal: options.signal,
      onStderr: stderr?.push,
      onNoise: events.onNoise && ((line) => events.onNoise!(redact(line, secrets))),
      onLog: events.onLog && ((entry) => {
        if (levelAtLeast(entry.level, logLevel)) events.onLog!(redactDeep(entry, secrets));
      }),
      onTrace: events.onTrace &&
        ((direction, message) =>
          events.onTrace!(direction, redact(JSON.stringify(message), secrets))),
      onWarning: events.onWarning && ((message) => events.onWarning!(redact(message, secrets))),
      onNotice: events.onNotice && ((message) => void events.onNotice!(redact(message, secrets))),
      onFallback: events.onFallback && ((reason) => events.onFallback!(redact(reason, secrets))),
      onEnd: events.onEnded &&
        ((error) => events.onEnded!(explainError(error, { sandbox, secrets }))),
      relay: options.relay && redactedRelay(options.relay, secrets),
      resumeSession,
    };
    session = found === undefined
      ? await openSession(launch, sessionOptions)
      : await throughSession(found, resolved.launch.label, sessionOptions, events);
    await events.onConnected?.(session);
    const nonce = found?.record.nonce;
    const connection = new Connection({
      target: resolved,
      session,
      launch,
      sandbox,
      secrets,
      options,
      questions,
      onClose: ended,
      ...(found === undefined ? {} : {
        via: sessionUse(found),
        translate: (error: unknown) => unmarkFailure(error, nonce!),
      }),
    });
    // Only a profile records schemas to check: no profile, no drift module.
    const drift = resolved.profile && await import("../drift/check.ts");
    if (drift && resumeSession === undefined && drift.driftChecked(resolved.profile, options)) {
      const verdict = drift.driftVerdict(resolved.profile, await session.listTools());
      connection.drift = verdict.report;
      if (verdict.report.status === "changed") {
        await events.onDrift?.({ ...verdict, report: redactDeep(verdict.report, secrets) });
        if (verdict.stop) throw drift.driftError(resolved.profile, verdict.report);
      }
    }
    return connection;
  } catch (error) {
    await session?.close();
    ended();
    const own = found === undefined ? error : unmarkFailure(error, found.record.nonce);
    throw explainError(own, { sandbox, secrets });
  }
}

/** What a connection through a session says of it. */
function sessionUse(found: FoundSession): SessionUse {
  const { record } = found;
  return { source: record.source, pid: record.pid, socket: record.socket, started: record.started };
}

/**
 * Connects to a session's socket, in the era its server speaks; a socket
 * that refuses (the session's process is gone) ends the session for good.
 */
async function throughSession(
  found: FoundSession,
  label: string,
  options: SessionOptions,
  events: ClientEvents,
): Promise<Session> {
  await events.onSession?.(sessionUse(found));
  const { record } = found;
  const protocol: ProtocolMode = record.era === "modern" && record.protocolVersion
    ? { pin: record.protocolVersion }
    : "legacy";
  try {
    // The session's own client answers roots; what the server asks during a call comes here.
    // In the session's own process (a forwarded command), the way in is memory.
    return await openSocketSession(record.socket, label, {
      ...options,
      // jn's own lines from the session (a question it declined) are shown as jn's.
      onOtherNotification: (method, params) => {
        const notice = unmarkNotice(method, params, record.nonce);
        if (notice !== undefined) void events.onNotice?.(notice);
      },
      protocol,
      offerVersion: record.protocolVersion,
      roots: undefined,
    }, localConnector(record.socket));
  } catch (error) {
    const cause = (error as Error)?.cause;
    if (cause instanceof Deno.errors.ConnectionRefused || cause instanceof Deno.errors.NotFound) {
      throw await sessionGone(found);
    }
    throw error;
  }
}

/** `make`, run on the first call only; later calls share its promise. */
function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => made ??= make();
}

/** A relay that is handed what the server sends with the connection's secrets redacted. */
function redactedRelay(relay: Relay, secrets: readonly string[]): Relay {
  return {
    capabilities: relay.capabilities,
    request: (method, params, signal) => relay.request(method, redactDeep(params, secrets), signal),
    notification: (method, params) => relay.notification(method, redactDeep(params, secrets)),
  };
}

function isTarget(value: string | Source | Target): value is Target {
  return typeof value === "object" && "launch" in value && "operation" in value;
}

/**
 * The server's stderr as whole lines (a secret the server wrote in two
 * pieces is still redacted), redacted; a line is let out in pieces of 64 KiB
 * so a server that never writes a newline cannot grow jn's memory.
 */
function stderrLines(onLine: (line: string) => void, secrets: readonly string[]) {
  const encoder = new TextEncoder();
  const splitter = new LineSplitter({ line: (line) => onLine(redact(line, secrets)) }, {
    maxBytes: 64 * 1024,
    overflow: "split",
    decoder: new TextDecoder("utf-8", { ignoreBOM: true }),
  });
  return {
    push: (text: string) => splitter.push(encoder.encode(text)),
    end: () => splitter.end(),
  };
}
