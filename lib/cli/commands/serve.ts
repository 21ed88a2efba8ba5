/**
 * `jn serve SOURCE…`: the sources served to an MCP host (lib/client/serve.ts)
 * over stdio — stdout then carries the protocol and nothing else — or
 * Streamable HTTP with `--http [HOST:]PORT` (the URL on stderr). Each source
 * is opened as `jn cat` opens it (trust, environment, sandbox, drift) and
 * offered curated and pinned. What happens is said on stderr, one line each,
 * server text made visible: notes, withheld tools, restarts, a source that
 * did not start, and with `--debug` each server's stderr.
 *
 * Ending: the host closing stdin, SIGTERM or SIGHUP end every source's
 * process tree and exit 0; Ctrl-C (SIGINT) or SIGQUIT exit 130, as for any
 * command; a second signal kills the trees at once.
 *
 * @module
 */

import { serve } from "../../client/serve.ts";
import { InterruptedError, UsageError } from "../../errors.ts";
import { visible, visibleLine } from "../../output/visible.ts";
import type { ClientEvents } from "../../client/options.ts";
import { launchOptions } from "../connect.ts";
import type { Cli } from "../context.ts";
import { printErr } from "../io.ts";
import { onInterrupt, type StopSignal } from "../signals.ts";
import type { Invocation } from "../table/command.ts";
import type { SERVE } from "../table/commands.ts";

/** The signals after which serving ends as asked (exit 0): how hosts stop a server. */
const CLEAN_STOP: readonly StopSignal[] = ["SIGTERM", "SIGHUP"];

/** `jn serve SOURCE…`. */
export async function run(cli: Cli, call: Invocation<typeof SERVE>): Promise<void> {
  const { io } = cli;
  const { options } = call;
  const say = (line: string) => void printErr(io, `jn: ${visible(line)}`);
  if (options.http === undefined) {
    const given = ["httpTokenEnv", "allowedHosts", "allowedOrigins", "maxSessions", "idleMs"]
      .filter((key) => call.given.has(key));
    if (given.length > 0) {
      throw new UsageError(`${given.length === 1 ? "A flag" : "Flags"} of HTTP without --http`, {
        hint: "add --http [HOST:]PORT, or leave out the HTTP flags to serve on stdio",
      });
    }
  }
  const token = httpToken(io.env, options.httpTokenEnv);
  const abort = new AbortController();
  let stoppedBy: StopSignal | undefined;
  const stopSignals = onInterrupt((signal) => {
    stoppedBy = signal;
    abort.abort(new InterruptedError(signal));
  });
  try {
    const served = await serve(call.args.source, {
      ...launchOptions(cli, options),
      signal: abort.signal,
      audit: options.audit,
      restarts: options.restarts,
      ...(options.http === undefined ? {} : {
        http: {
          ...options.http,
          token,
          allowedHosts: options.allowedHosts,
          allowedOrigins: options.allowedOrigins,
          idleMs: options.idleMs,
          maxSessions: options.maxSessions,
        },
      }),
      events: {
        source: (name) => sourceEvents(cli, name, say),
        onNotice: cli.quiet ? undefined : say,
        onSourceFailed: (source, error) =>
          say(
            `source "${source}" did not start (the others serve): ${visibleLine(error.message)}`,
          ),
        onWithheld: (source, tools) =>
          say(
            `"${source}" withholds ${tools.length} tool${tools.length === 1 ? "" : "s"}: ` +
              tools.map((tool) =>
                // A server names its tools: one line each, so a newline cannot start a jn: line.
                visibleLine(`${tool.name} (${tool.reason}${tool.fix ? `; ${tool.fix}` : ""})`)
              ).join("; "),
          ),
        onRestart: (source, attempt, reason) =>
          say(
            `"${source}" ended (${
              visibleLine(reason.message)
            }): starting it again (attempt ${attempt})`,
          ),
        onWarning: cli.debug ? (message) => say(`debug: ${visibleLine(message)}`) : undefined,
      },
    });
    if (served.url) say(`serving ${served.sources.join(", ")} at ${served.url}`);
    await served.done;
  } finally {
    stopSignals();
  }
  if (stoppedBy !== undefined && !CLEAN_STOP.includes(stoppedBy)) {
    throw new InterruptedError(stoppedBy);
  }
}

/** The bearer token of `--http-token-env VAR`, from the environment (never argv). */
function httpToken(env: Record<string, string>, name: string | undefined): string | undefined {
  if (name === undefined) return undefined;
  const value = env[name];
  if (value === undefined || value === "") {
    throw new UsageError(`--http-token-env ${name}: the variable is not set`, {
      hint: `export ${name}=… (a long random value; hosts send it as Authorization: Bearer …)`,
    });
  }
  return value;
}

/** What one source's connections say, on stderr (server text made visible). */
function sourceEvents(cli: Cli, name: string, say: (line: string) => void): ClientEvents {
  const quiet = cli.quiet;
  return {
    onNotice: quiet ? undefined : (message) => say(`${name}: ${message}`),
    onDrift: async (drift) => {
      if (quiet && !drift.stop) return;
      const { driftWarning } = await import("../../client/messages.ts");
      say(`${name}: ${driftWarning(drift, { color: false })}`);
    },
    onStderr: cli.debug
      ? (line) => say(`[${name}] ${visible(line, { oneLine: true })}`)
      : undefined,
    onWarning: cli.debug ? (message) => say(`${name}: debug: ${visibleLine(message)}`) : undefined,
  };
}
