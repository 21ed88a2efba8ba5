/**
 * What a failed request means, in jn's typed errors (lib/errors.ts): an
 * interruption, a JSON-RPC error of the server, a malformed answer, a
 * timeout that names the request and its bound, a server that exited or
 * closed the connection (with its last stderr lines), or the failure the
 * channel itself recognises. A request after a fatal failure gets that
 * failure.
 *
 * @module
 */

import {
  ConnectionError,
  InterruptedError,
  JnError,
  LaunchError,
  ProtocolError,
  TimeoutError,
} from "../errors.ts";
import { HARD_BOUND_FACTOR } from "./bounds.ts";
import { type Channel, findCause } from "./channel.ts";
import { MalformedAnswer } from "./message_check.ts";
import type { SessionOptions } from "./types.ts";

type Sdk = typeof import("@modelcontextprotocol/client");

/** What the translation needs to know of the session. */
export interface TranslateContext {
  /** The SDK (its error classes). */
  sdk: Sdk;
  /** The channel (its stderr tail, exit status, own reading of failures). */
  channel: Channel;
  /** The server's label, for messages. */
  server: string;
  /** The session's bounds and signal. */
  options: Pick<SessionOptions, "signal" | "timeoutMs" | "connectTimeoutMs">;
  /** The failure that ended the session, if one did. */
  fatal?: JnError;
}

/** Maps whatever the SDK or the transport threw to one of jn's errors. */
export function translateError(error: unknown, label: string, ctx: TranslateContext): JnError {
  const signal = ctx.options.signal;
  if (signal?.aborted) {
    return signal.reason instanceof InterruptedError ? signal.reason : new InterruptedError();
  }
  if (ctx.fatal) return ctx.fatal;
  const own = findCause(error, (c) => c instanceof JnError ? c : undefined);
  if (own) return own;
  const sdk = ctx.sdk;
  const tail = ctx.channel.stderrTail() || undefined;
  if (error instanceof sdk.ProtocolError && error.data instanceof MalformedAnswer) {
    return new ProtocolError(
      `The server sent a malformed answer to ${label}: ${error.data.problem}`,
      { cause: error, hint: "the server breaks the MCP protocol; report it to its authors" },
    );
  }
  if (error instanceof sdk.ProtocolError) {
    return new ProtocolError(
      `The server answered ${label} with error ${error.code}: ${ownWords(error.message)}`,
      { code: error.code, data: error.data, serverMessage: error.message, cause: error },
    );
  }
  const specific = ctx.channel.translate(error, label);
  if (specific) return specific;
  if (error instanceof sdk.SdkError && error.code === sdk.SdkErrorCode.RequestTimeout) {
    const total = (error.data as { maxTotalTimeout?: unknown } | undefined)?.maxTotalTimeout;
    if (typeof total === "number") {
      return new TimeoutError(label, total, {
        cause: error,
        hint: `progress kept coming, but ${HARD_BOUND_FACTOR} × --timeout is the most any ` +
          "request may take; raise --timeout if the call really needs longer",
      });
    }
    return new TimeoutError(label, timeoutFor(label, ctx), {
      cause: error,
      hint: label === "initialize"
        ? "a server that starts slowly (first npx/uvx download) needs --connect-timeout 5m"
        : "raise the bound with --timeout (e.g. --timeout 5m), or --timeout 0 for none",
    });
  }
  if (error instanceof sdk.SdkError) {
    switch (error.code) {
      case sdk.SdkErrorCode.ConnectionClosed:
      case sdk.SdkErrorCode.NotConnected:
      case sdk.SdkErrorCode.SendFailed:
        return exitedError(label, error, tail, ctx);
      case sdk.SdkErrorCode.InvalidResult:
      case sdk.SdkErrorCode.UnsupportedResultType:
        return new ProtocolError(
          `The server sent a malformed answer to ${label}: ${oneLine(error.message)}`,
          { cause: error },
        );
      default:
        return new ProtocolError(`${label} failed: ${error.message}`, { cause: error });
    }
  }
  if ((error as Error)?.name === "AbortError") return new InterruptedError();
  if (ctx.channel.exitStatus()) return exitedError(label, error, tail, ctx);
  return new ProtocolError(`${label} failed: ${(error as Error)?.message ?? error}`, {
    cause: error,
  });
}

/**
 * A server's error message without the "MCP error -32002: " that servers on
 * the v1 TypeScript SDK put in front of it (their McpError's own message):
 * jn already says which error it was.
 */
function ownWords(message: string): string {
  return message.replace(/^MCP error -?\d+: /, "");
}

function timeoutFor(label: string, ctx: TranslateContext): number {
  return label === "initialize" ? ctx.options.connectTimeoutMs : ctx.options.timeoutMs;
}

function exitedError(
  label: string,
  cause: unknown,
  stderrTail: string | undefined,
  ctx: TranslateContext,
): JnError {
  const status = ctx.channel.exitStatus();
  const how = status === undefined
    ? "closed the connection"
    : status.signal
    ? `was killed by ${status.signal}`
    : `exited with code ${status.code}`;
  const what = label === "initialize" ? "before the MCP handshake completed" : `during ${label}`;
  const Kind = label === "initialize" && ctx.channel.kind === "stdio"
    ? LaunchError
    : ConnectionError;
  return new Kind(`The server "${ctx.server}" ${how} ${what}`, {
    cause,
    stderrTail,
    hint: stderrTail || ctx.channel.kind !== "stdio"
      ? undefined
      : "run the server command by hand to see why it stops",
  });
}

/**
 * The SDK's message of a result its schema rejected, on one line: it ends in
 * zod's issues as pretty-printed JSON (`Invalid result for tools/list: [ {…} ]`),
 * which become `ttlMs: Invalid input: expected number; cacheScope: …`.
 */
export function oneLine(message: string): string {
  const start = message.indexOf("[");
  if (start >= 0) {
    try {
      const issues = JSON.parse(message.slice(start)) as { path?: unknown[]; message?: unknown }[];
      if (Array.isArray(issues) && issues.length > 0) {
        const shown = issues.slice(0, 3).map((issue) => {
          const path = Array.isArray(issue.path) ? issue.path.join(".") : "";
          return `${path ? `${path}: ` : ""}${String(issue.message)}`;
        });
        if (issues.length > 3) shown.push(`${issues.length - 3} more`);
        return `${message.slice(0, start).trimEnd()} ${shown.join("; ")}`;
      }
    } catch { /* not zod's issues: fall through */ }
  }
  return message.replace(/\s*\n\s*/g, " ");
}
