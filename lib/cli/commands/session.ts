/**
 * `jn session start|list|stop` (docs/session.md), and `session _run`, the
 * session's own process that `start` launches (lib/client/session_run.ts).
 * What `start` and `stop` say goes to stderr (stdout carries data only:
 * `list`'s table, or its records with `--format json`).
 *
 * `_run` takes its request as JSON on stdin (never argv: it holds the
 * caller's environment) and writes its start reports as JSON lines on
 * stdout, which it closes once the session serves or failed; its stderr is
 * not the terminal's (start gives it none), so after that it says nothing.
 *
 * @module
 */

import { launchOptions } from "../connect.ts";
import type { SessionRequest, StartReport } from "../../client/session_request.ts";
import { formatMs, InterruptedError, JnError, UsageError } from "../../errors.ts";
import { jsonSafe, visible, visibleDeep } from "../../output/visible.ts";
import { writeAll } from "../../ndjson/write_all.ts";
import { readStreamBounded } from "../../text/bytes.ts";
import type { Cli } from "../context.ts";
import { printErr } from "../io.ts";
import { onInterrupt } from "../signals.ts";
import type { Invocation } from "../table/command.ts";
import type { SESSION_LIST, SESSION_RUN, SESSION_START, SESSION_STOP } from "../table/commands.ts";
import { writeText } from "../write.ts";

type SessionCall = Invocation<
  typeof SESSION_START | typeof SESSION_LIST | typeof SESSION_STOP | typeof SESSION_RUN
>;

/** The largest request `_run` reads. */
const MAX_REQUEST_BYTES = 16 * 1024 * 1024;

/** `jn session start|list|stop|_run`. */
export function run(cli: Cli, call: SessionCall): Promise<void> {
  switch (call.command.path[1]) {
    case "start":
      return start(cli, call as Invocation<typeof SESSION_START>);
    case "list":
      return list(cli, call as Invocation<typeof SESSION_LIST>);
    case "stop":
      return stop(cli, call as Invocation<typeof SESSION_STOP>);
    default:
      return serveSession(cli);
  }
}

async function start(cli: Cli, call: Invocation<typeof SESSION_START>): Promise<void> {
  const { io } = cli;
  const say = (line: string) => printErr(io, `jn: ${visible(line)}`);
  const { idleMs, ...flags } = call.options;
  const abort = new AbortController();
  const stopSignals = onInterrupt((signal) => abort.abort(new InterruptedError(signal)));
  const { startSession } = await import("../../client/session_start.ts");
  try {
    const { record, existing } = await startSession(call.args.source, {
      ...launchOptions(cli, flags),
      idleMs,
      signal: abort.signal,
      events: {
        onNotice: cli.quiet ? undefined : (message) => say(message),
        onWarning: cli.debug ? (message) => say(`debug: ${message}`) : undefined,
        onDrift: async (drift) => {
          if (cli.quiet && !drift.stop) return;
          const { driftWarning } = await import("../../client/messages.ts");
          await printErr(io, driftWarning(drift, { color: false }));
        },
      },
    });
    if (cli.quiet) return;
    const ends = record.idleMs > 0 ? `after ${formatMs(record.idleMs)} without a call, or ` : "";
    await say(
      existing
        ? `a session of ${record.name} already runs (pid ${record.pid})`
        : `session of ${record.name} started (pid ${record.pid}); it ends ${ends}with: ` +
          `jn session stop ${call.args.source}`,
    );
  } finally {
    stopSignals();
  }
}

async function list(cli: Cli, call: Invocation<typeof SESSION_LIST>): Promise<void> {
  const { listSessions } = await import("../../client/session_list.ts");
  const entries = visibleDeep(await listSessions({ cwd: cli.io.cwd, env: cli.io.env }));
  if (call.options.format === "json") {
    await writeText(
      cli.io,
      entries.map((entry) => jsonSafe(JSON.stringify(entry)) + "\n").join(""),
    );
    return;
  }
  // Not data: a message for people (stdout stays empty, as `--format json` leaves it).
  if (entries.length === 0) return cli.quiet ? undefined : await printErr(cli.io, "No sessions.");
  const rows = entries.map((entry) =>
    entry.state === "running"
      ? [
        entry.source,
        String(entry.pid),
        when(entry.started),
        when(entry.last_used),
        String(entry.calls),
        entry.idle_deadline ? when(entry.idle_deadline) : "when stopped",
        entry.sandboxed ? "yes" : "no",
      ]
      : [entry.source, "-", "-", "-", "-", `ended ${when(entry.ended)}: ${entry.reason}`, "-"]
  );
  const header = ["SOURCE", "PID", "STARTED", "LAST USED", "CALLS", "ENDS", "SANDBOXED"];
  const widths = header.map((title, at) =>
    Math.max(title.length, ...rows.map((r) => r[at].length))
  );
  const line = (cells: string[]) =>
    cells.map((cell, at) => at === cells.length - 1 ? cell : cell.padEnd(widths[at])).join("  ")
      .trimEnd() + "\n";
  await writeText(cli.io, [header, ...rows].map(line).join(""));
}

/** An ISO time as `YYYY-MM-DD HH:MM:SS` (UTC). */
function when(iso: string | undefined): string {
  return iso === undefined ? "-" : iso.slice(0, 19).replace("T", " ");
}

async function stop(cli: Cli, call: Invocation<typeof SESSION_STOP>): Promise<void> {
  const { io } = cli;
  const source = call.args.source;
  if ((source === undefined) === (call.options.all !== true)) {
    throw new UsageError("Name the session to stop, or give --all", {
      hint: "jn session stop @server (jn session list shows them), or jn session stop --all",
    });
  }
  const { stopAllSessions, stopSession } = await import("../../client/session_stop.ts");
  const place = { cwd: io.cwd, env: io.env };
  const stopped = source === undefined
    ? await stopAllSessions(place)
    : [await stopSession(source, place)];
  if (cli.quiet) return;
  for (const session of stopped) {
    await printErr(
      io,
      `jn: ${
        visible(
          session.pid === undefined
            ? `forgot the ended session of ${session.name}`
            : `stopped the session of ${session.name} (pid ${session.pid})`,
        )
      }`,
    );
  }
}

/** `jn session _run`: the session's own process. */
async function serveSession(cli: Cli): Promise<void> {
  const { io } = cli;
  const request = await readRequest(io.stdin);
  let open = true;
  let writing = Promise.resolve();
  const report = (message: StartReport): Promise<void> => {
    if (!open) return writing;
    const last = "ready" in message || "error" in message;
    if (last) open = false;
    const bytes = new TextEncoder().encode(`${JSON.stringify(message)}\n`);
    writing = writing.then(() => writeAll(io.stdout, bytes)).catch(() => {}).then(() => {
      if (last) closeStdout(io.stdout);
    });
    // Once it serves, what a forwarded command runs is loaded ahead of the first one.
    if ("ready" in message) {
      void import("../forward_serve.ts").then((forward) => forward.warmUp(cli.load)).catch(
        () => {},
      );
    }
    return writing;
  };
  const { runSession } = await import("../../client/session_run.ts");
  // A command forwarded to the session runs here, with this jn's own loader.
  const forward = async (conn: Deno.UnixConn, rest: Uint8Array, greeted: () => void) =>
    await (await import("../forward_serve.ts")).serveForward(conn, rest, cli.load, greeted);
  try {
    await runSession(request, report, { forward });
  } catch (error) {
    if (!open) throw error;
    const failure = error instanceof JnError
      ? error
      : new JnError(String((error as Error)?.message));
    await report({ error: { name: failure.name, message: failure.message, hint: failure.hint } });
    throw error;
  }
}

async function readRequest(stdin: ReadableStream<Uint8Array>): Promise<SessionRequest> {
  const bytes = await readStreamBounded(stdin, MAX_REQUEST_BYTES);
  if (bytes === undefined) throw new UsageError("jn session _run: the request is too large");
  const request = JSON.parse(new TextDecoder().decode(bytes)) as SessionRequest;
  if (
    typeof request?.source !== "string" || typeof request.cwd !== "string" ||
    typeof request.env !== "object" || typeof request.idleMs !== "number"
  ) {
    throw new UsageError("jn session _run is started by jn session start", {
      hint: "start a session with: jn session start SOURCE",
    });
  }
  return request;
}

function closeStdout(stdout: unknown): void {
  try {
    (stdout as { close?: () => void }).close?.();
  } catch { /* already closed */ }
}
