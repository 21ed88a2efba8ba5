/**
 * Opens a session for a CLI command and guarantees its teardown: the session
 * is closed (and the server's process tree ended) on success, error, broken
 * pipe and Ctrl-C. Server logs, stdout noise and the `--debug` protocol log
 * go to stderr, with substituted secrets redacted.
 *
 * @module
 */

import { InterruptedError } from "../errors.ts";
import { describeArgv } from "../launch/spec.ts";
import { LineSplitter } from "../ndjson/split.ts";
import { redact, unredactable } from "../output/redact.ts";
import { visible } from "../output/visible.ts";
import { openSession, type Session } from "../session/session.ts";
import type { LogEntry } from "../types.ts";
import type { Target } from "../client/resolve.ts";
import { style } from "../output/style.ts";
import { printErr, useColor } from "./io.ts";
import type { Ctx } from "./main.ts";
import { checkDrift } from "./drift.ts";
import { onInterrupt } from "./signals.ts";
import { redactError } from "../client/redact_error.ts";
import { type CallFlags, LOG_LEVELS, type LogLevel } from "./options.ts";
import { sessionExtras } from "../client/remote.ts";
import { explainSandboxFailure, type SandboxedLaunch, sandboxedLaunch } from "../client/sandbox.ts";

/** Runs `fn` with an open session on the target; always closes it. */
export async function withSession<T>(
  ctx: Ctx,
  target: Target,
  flags: CallFlags,
  fn: (session: Session, signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const abort = new AbortController();
  const extras = sessionExtras(ctx, target, flags);
  const stopSignals = onInterrupt((signal) => abort.abort(new InterruptedError(signal)));
  const s = style(useColor(ctx.io));
  // Diagnostics are written in order and flushed before withSession returns
  // (main.ts exits right after, and would drop writes still in flight).
  let written = Promise.resolve();
  const say = (text: string) => {
    written = written.then(() => printErr(ctx.io, redact(text, extras.secrets)));
  };
  let noiseShown = false;
  // Server stderr is shown whole lines at a time, so a secret the server
  // wrote in two pieces is still redacted (lib/ndjson/split.ts).
  const showStderr = (line: string) => {
    say(s.dim(`[${target.name}] `) + visible(redact(line, extras.secrets), { oneLine: true }));
  };
  const stderrLines = new LineSplitter({ line: showStderr }, {
    maxBytes: 64 * 1024,
    overflow: "split",
    decoder: new TextDecoder("utf-8", { ignoreBOM: true }),
  });
  const encoder = new TextEncoder();
  let session: Session | undefined;
  let sandbox: SandboxedLaunch["sandbox"];
  try {
    const prepared = await sandboxedLaunch(ctx, target, flags, extras.launch);
    sandbox = prepared.sandbox;
    if (ctx.debug && unredactable(extras.secrets).length > 0) {
      say(s.dim("jn: debug: a substituted value shorter than 4 characters is not redacted"));
    }
    if (ctx.debug && sandbox && prepared.launch.transport === "stdio") {
      say(s.dim(`jn: debug: sandboxed: ${describeArgv(prepared.launch)}`));
    }
    session = await openSession(prepared.launch, {
      ...extras.options,
      logLevel: flags.logLevel,
      timeoutMs: flags.timeoutMs,
      connectTimeoutMs: flags.connectTimeoutMs,
      callerEnv: ctx.io.env,
      protocol: flags.protocol,
      signal: abort.signal,
      onStderr: ctx.debug ? (text) => stderrLines.push(encoder.encode(text)) : undefined,
      onNoise: (line) => {
        if (ctx.quiet || (noiseShown && !ctx.debug)) return;
        noiseShown = true;
        say(
          `${s.yellow("jn: warning:")} the server wrote non-JSON text to stdout (ignored): ${
            visible(JSON.stringify(redact(line, extras.secrets).slice(0, 120)))
          }`,
        );
      },
      onLog: (entry) => {
        if (!ctx.quiet && levelAtLeast(entry.level, flags.logLevel)) {
          say(formatLog(target.name, entry));
        }
      },
      onTrace: ctx.debug
        ? (direction, message) =>
          say(s.dim(`${direction === "send" ? "→" : "←"} ${traceText(message, extras.secrets)}`))
        : undefined,
      onWarning: ctx.debug ? (message) => say(s.dim(`jn: debug: ${message}`)) : undefined,
      onNotice: ctx.quiet ? undefined : (message) => say(`${s.yellow("jn:")} ${message}`),
      onFallback: ctx.debug
        ? (reason) => say(s.dim(`jn: debug: falling back to legacy SSE (${reason})`))
        : undefined,
    });
    if (ctx.debug) {
      const server = session.server;
      say(s.dim(
        `jn: debug: connected to ${server.name ?? "?"} ${
          server.version ?? ""
        } (protocol ${server.protocolVersion}, ${server.era}, ${session.transportKind})`,
      ));
    }
    await checkDrift(ctx, target, session, flags);
    return await fn(session, abort.signal);
  } catch (error) {
    explainSandboxFailure(error, sandbox);
    throw redactError(error, extras.secrets);
  } finally {
    await session?.close();
    stopSignals();
    stderrLines.end();
    await written;
  }
}

function levelAtLeast(level: string, threshold: LogLevel): boolean {
  const index = LOG_LEVELS.indexOf(level as LogLevel);
  return (index === -1 ? 1 : index) >= LOG_LEVELS.indexOf(threshold);
}

/**
 * `[server] level logger: data`, the server's text with its control
 * characters made visible; continuation lines of a multi-line message are
 * indented, so they cannot pass for jn's own lines.
 */
function formatLog(server: string, entry: LogEntry): string {
  const data = typeof entry.data === "string" ? entry.data : JSON.stringify(entry.data);
  const logger = entry.logger ? ` ${visible(String(entry.logger), { oneLine: true })}` : "";
  const level = visible(String(entry.level), { oneLine: true });
  return `[${server}] ${level}${logger}: ${visible(String(data)).replaceAll("\n", "\n    ")}`;
}

/** One protocol message, redacted before it is cut short (a cut secret would not match). */
function traceText(message: unknown, secrets: readonly string[]): string {
  const text = visible(redact(JSON.stringify(message), secrets));
  return text.length > 2000 ? `${text.slice(0, 2000)}… (${text.length} chars)` : text;
}
