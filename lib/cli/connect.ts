/**
 * How a CLI command talks to a server: its flags become the client's
 * options (once, as plain data), the connection is opened through
 * lib/client (which applies every policy), and what the client reports is
 * shown on stderr — sandbox notices, the drift warning, server logs, and
 * under `--debug` the server's stderr, the protocol exchange and what was
 * started. Guarantees: the connection is closed (and the server's process
 * tree ended) on success, error, broken pipe and Ctrl-C; what was said on
 * stderr is written, in order, before the command returns (but a bounded
 * amount waits: lines past it are dropped, said once — stderr_queue.ts).
 *
 * @module
 */

import type { Connection } from "../client/connection.ts";
import { open } from "../client/open.ts";
import type { ClientEvents, OpenOptions } from "../client/options.ts";
import type { Target } from "../client/resolve.ts";
import { sandboxedArgvLine } from "../client/sandbox.ts";
import { InterruptedError, UsageError } from "../errors.ts";
import { redact, unredactable } from "../output/redact.ts";
import { style } from "../output/style.ts";
import { visible } from "../output/visible.ts";
import type { LogEntry } from "../types.ts";
import type { Cli } from "./context.ts";
import { elicitationHandler } from "./elicit.ts";
import { type Io, printErr, useColor } from "./io.ts";
import { onInterrupt } from "./signals.ts";
import { StderrQueue } from "./stderr_queue.ts";
import type { Values } from "./table/flag.ts";
import { CONNECTION_FLAGS, ELICIT } from "./table/flags.ts";

/**
 * What the connection flags parsed into (lib/cli/table/flags.ts): fields of
 * the client's `OpenOptions`, plus how the CLI answers and shows the server
 * (`elicit`, `progress`). A command that takes only some of them (`auth
 * login`) gives those.
 */
export type ConnectionValues = Partial<Values<typeof CONNECTION_FLAGS>>;

/** Runs `fn` with an open connection to the target; always closes it. */
export async function withConnection<T>(
  cli: Cli,
  target: Target,
  values: ConnectionValues,
  fn: (conn: Connection, signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const abort = new AbortController();
  const stderr = new StderrReport(cli, target);
  let conn: Connection | undefined;
  const stopSignals = onInterrupt((signal) => abort.abort(new InterruptedError(signal)), {
    io: cli.io,
  });
  try {
    conn = await open(target, {
      ...openOptions(cli, target.name, values),
      signal: abort.signal,
      events: stderr.events,
    });
    return await fn(conn, abort.signal);
  } catch (error) {
    throw conn ? conn.explain(error) : error;
  } finally {
    await conn?.close();
    stopSignals();
    await stderr.written();
  }
}

/** The client's options of a command's connection flags. */
export function openOptions(cli: Cli, server: string, values: ConnectionValues): OpenOptions {
  const { io } = cli;
  const mode = values.elicit ?? ELICIT.default;
  // Asked to prompt, or to decline: no answers as data, not even the profile's.
  const asked = mode === "prompt" || mode === "decline";
  if (asked && values.elicitAnswers !== undefined) {
    throw new UsageError(`--elicit-answers and --elicit ${mode} say different things`, {
      hint: "give one of them (--elicit-answers answers the forms it fits, and declines the rest)",
    });
  }
  return {
    ...launchOptions(cli, values),
    ...(asked ? { elicitAnswers: false } : {}),
    elicit: elicitationHandler(io, { mode, server, quiet: cli.quiet }),
    auth: {
      // A browser sign-in only where a person can see it, or where JN_BROWSER says how.
      interactive: io.tty.stderr || Boolean(io.env.JN_BROWSER),
      onSignIn: (url) => showSignIn(io, server, url),
    },
  };
}

/**
 * The client's options that the connection flags set (OpenOptions' own
 * fields: bounds, protocol, sandbox, headers…), with the caller's directory
 * and environment: how to reach and launch a server, not how to answer it.
 */
export function launchOptions(cli: Cli, values: ConnectionValues): OpenOptions {
  const fields: Record<string, unknown> = {};
  for (const { key } of CONNECTION_FLAGS) {
    // `elicit` and `progress` are the CLI's: how it answers and shows the server.
    if (key !== "elicit" && key !== "progress" && values[key] !== undefined) {
      fields[key] = values[key];
    }
  }
  return { ...fields as Partial<OpenOptions>, cwd: cli.io.cwd, env: cli.io.env };
}

/** Prints the sign-in URL and tries to open it in a browser. */
async function showSignIn(io: Io, server: string, url: string): Promise<void> {
  await printErr(
    io,
    `jn: ${server} needs you to sign in. Open this URL in a browser (jn waits for it):\n  ${url}`,
  );
  // Only a remote server's OAuth sign-in opens a browser.
  const { openBrowser } = await import("../auth/browser.ts");
  openBrowser(url, io.env);
}

/**
 * The client's events as stderr lines: written one after another, redacted
 * once more with every secret the client named (a last line of defence),
 * server text made visible. `--quiet` keeps only what precedes an error.
 */
class StderrReport {
  #target: Target;
  #secrets: readonly string[];
  #queue: StderrQueue;
  #noiseShown = false;
  readonly events: ClientEvents;

  constructor(cli: Cli, target: Target) {
    this.#target = target;
    this.#secrets = target.secrets;
    this.#queue = new StderrQueue(cli.io);
    const { debug, quiet } = cli;
    const color = useColor(cli.io);
    const s = style(color);
    this.events = {
      onNotice: quiet ? undefined : (message) => this.#print(`${s.yellow("jn:")} ${message}`),
      onPrepared: (prepared) => {
        this.#secrets = prepared.secrets;
        if (debug && unredactable(prepared.secrets).length > 0) {
          this.#say(
            s.dim("jn: debug: a substituted value shorter than 4 characters is not redacted"),
          );
        }
        if (debug && prepared.sandbox && prepared.launch.transport === "stdio") {
          this.#say(
            s.dim(`jn: debug: sandboxed: ${sandboxedArgvLine(prepared.launch, prepared.secrets)}`),
          );
        }
      },
      onSession: debug
        ? (session) =>
          this.#say(s.dim(
            `jn: debug: through the session of ${session.source} (pid ${session.pid}, ` +
              `started ${session.started}, socket ${session.socket})`,
          ))
        : undefined,
      onConnected: debug
        ? (session) => {
          const server = session.server;
          this.#say(s.dim(
            `jn: debug: connected to ${server.name ?? "?"} ${
              server.version ?? ""
            } (protocol ${server.protocolVersion}, ${server.era}, ${session.transportKind})`,
          ));
        }
        : undefined,
      // The warnings' texts load when a profile's check finds something to say.
      onDrift: async (drift) => {
        if (quiet && !drift.stop) return;
        const { driftWarning } = await import("../client/messages.ts");
        return this.#print(driftWarning(drift, { color }));
      },
      onOutputFormat: quiet ? undefined : async (drift) => {
        const { outputFormatWarning } = await import("../client/messages.ts");
        return this.#print(outputFormatWarning(drift, { color }));
      },
      onLog: quiet ? undefined : (entry) => this.#say(formatLog(target.name, entry)),
      onStderr: debug
        ? (line) => this.#say(s.dim(`[${target.name}] `) + visible(line, { oneLine: true }))
        : undefined,
      onNoise: (line) => {
        if (quiet || (this.#noiseShown && !debug)) return;
        this.#noiseShown = true;
        this.#say(
          `${s.yellow("jn: warning:")} the server wrote non-JSON text to stdout (ignored): ${
            visible(JSON.stringify(line.slice(0, 120)))
          }`,
        );
      },
      onTrace: debug
        ? (direction, text) =>
          this.#say(s.dim(`${direction === "send" ? "→" : "←"} ${traceText(text)}`))
        : undefined,
      onWarning: debug ? (message) => this.#say(s.dim(`jn: debug: ${message}`)) : undefined,
      onFallback: debug
        ? (reason) => this.#say(s.dim(`jn: debug: falling back to legacy SSE (${reason})`))
        : undefined,
    };
  }

  /** Resolves when everything said so far is written. */
  written(): Promise<void> {
    return this.#queue.written();
  }

  /** Queues a line (the client calls most events synchronously); bounded (stderr_queue.ts). */
  #say(text: string): void {
    this.#queue.say(redact(text, this.#secrets));
  }

  /** Writes text after everything queued, and waits for it (it precedes what follows). */
  #print(text: string): Promise<void> {
    return this.#queue.print(redact(text, this.#secrets));
  }
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

/** One protocol message (already redacted: a cut secret would not match), cut short. */
function traceText(json: string): string {
  const text = visible(json);
  return text.length > 2000 ? `${text.slice(0, 2000)}… (${text.length} chars)` : text;
}
