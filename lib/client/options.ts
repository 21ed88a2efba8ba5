/**
 * What a program gives {@linkcode open} (lib/client/open.ts): plain data
 * (the caller's directory and environment, bounds, sandbox, remote
 * settings) and the callbacks through which jn tells it what happens — a
 * drift warning, a server log line, a notice of what the sandbox left out.
 * The CLI is one such program: it turns its flags into these options once
 * and renders the events on stderr; another program shows them as it likes.
 *
 * @module
 */

import type { DriftVerdict, OutputFormatDrift } from "../drift/check.ts";
import type { LaunchSpec } from "../launch/spec.ts";
import type { SandboxPolicy } from "../sandbox/policy.ts";
import type { JnError } from "../errors.ts";
import type { LoginSettings, ProtocolMode, Relay, Session } from "../session/types.ts";
import type {
  ElicitationRequest,
  ElicitationResponse,
  LogEntry,
  SamplingRequest,
  SamplingResponse,
} from "../types.ts";
import type { SandboxPlan } from "../sandbox/plan.ts";
import type { ElicitAnswers } from "./elicit_answers.ts";
import { LOG_LEVELS, type LogLevel } from "../session/log_levels.ts";

export { parseHostList } from "../sandbox/hosts.ts";
export type { SandboxPolicy } from "../sandbox/policy.ts";
export type { ProtocolMode } from "../session/types.ts";
/** The editors whose MCP configs `importProfiles` reads (lib/client/profile_import.ts). */
export { EDITOR_NAMES, type EditorName } from "../profile/edit/editor_names.ts";

export { LOG_LEVELS, type LogLevel };

/**
 * What {@linkcode OpenOptions} mean when a field is left out: the one place
 * these defaults are declared (the CLI's help shows them from here).
 */
export const OPEN_DEFAULTS = {
  /** Bound of each request: 60 s. */
  timeoutMs: 60_000,
  /** Bound of starting the server and the handshake: 60 s. */
  connectTimeoutMs: 60_000,
  /** Protocol era: negotiated. */
  protocol: "auto",
  /** Server log messages from `info` up. */
  logLevel: "info",
} as const satisfies Partial<OpenOptions>;

/** What `serve` does unless told otherwise (lib/client/serve.ts). */
export const SERVE_DEFAULTS = {
  /** A source whose server died is started again at most this often. */
  restarts: 3,
  /** The pause before the first restart (doubling each time). */
  restartBackoffMs: 500,
  /** An HTTP session idle this long is ended with its servers: 30 minutes. */
  idleMs: 30 * 60_000,
  /** HTTP sessions at once, at most (each starts every source's server). */
  maxSessions: 32,
} as const;

/** What a session does unless told otherwise (docs/session.md). */
export const SESSION_DEFAULTS = {
  /** A session without a call this long ends, with its server: 15 minutes (0: never). */
  idleMs: 15 * 60_000,
} as const;

/** What `put` does unless told otherwise: calls in flight, timeouts in a row before it stops calling. */
export const PUT_DEFAULTS = { concurrency: 8, maxTimeouts: 3 } as const;

/** Where and how to reach a server, and what jn may give it. */
export interface OpenOptions {
  /**
   * The caller's working directory: relative paths (scripts, roots, sandbox
   * paths) start here, and a stdio server starts here unless its profile
   * names a `cwd` (whatever the program's own working directory is).
   */
  cwd: string;
  /**
   * The caller's environment: `${VAR}` values, `tokenEnv`, variables passed
   * through by name; and jn's own, for its own steps: its PATH finds bwrap
   * and the server's launcher, its HOME and caches shape the sandbox (a
   * profile's `env` is the server's alone).
   */
  env: Record<string, string>;
  /** Bound of each request in ms (progress resets it, up to 10 × in all); 0 = none. Default 60 s. */
  timeoutMs?: number;
  /** Bound of starting the server and the handshake in ms; 0 = none. Default 60 s. */
  connectTimeoutMs?: number;
  /** Protocol era: `"auto"` (default), `"legacy"` (2025), or `{ pin: "2026-07-28" }`. */
  protocol?: ProtocolMode;
  /** Server log messages at this level or above reach `events.onLog`. Default `"info"`. */
  logLevel?: LogLevel;
  /** Confine the server: merged with the profile's `sandbox` (each widens the other). */
  sandbox?: SandboxPolicy;
  /** Variables of `env` passed to the server by name (a server gets no others but safe defaults). */
  envPassthrough?: string[];
  /** Extra HTTP headers for a remote server (over the profile's `headers`). */
  headers?: Record<string, string>;
  /** The variable of `env` holding a bearer token for a remote server. */
  tokenEnv?: string;
  /** Allow cleartext `http://` to hosts other than loopback. */
  allowHttp?: boolean;
  /** Directories exposed to the server as roots (besides the profile's `roots`). */
  roots?: string[];
  /** Skip the profile's schema drift check and the `output_format` check. */
  ignoreSchema?: boolean;
  /** Answers the server's elicitation requests; without it elicitation is not offered. */
  elicit?: (request: ElicitationRequest) => Promise<ElicitationResponse>;
  /**
   * Answers to the server's forms as data, over the profile's
   * `elicit_answers` (`false`: not even those): each form is answered from
   * them, validated against its schema, before `elicit` is asked; what does
   * not fit is declined, and `events.onNotice` says why
   * (lib/client/elicit_answers.ts).
   */
  elicitAnswers?: ElicitAnswers | false;
  /**
   * Answers the server's sampling requests (`sampling/createMessage`): resolve
   * with the assistant's message, reject to refuse. Without it (and without a
   * sampling command) sampling is not offered, and a request is refused.
   */
  sample?: (request: SamplingRequest) => Promise<SamplingResponse>;
  /**
   * A shell command that answers sampling requests (over the profile's
   * `sampling_command`; `sample` wins over both): the request's params as JSON
   * on its stdin, its stdout the answer's text, a non-zero exit a refusal.
   */
  samplingCommand?: string;
  /** OAuth for remote servers (tokens live under the user's jn directory, mode 0600). */
  auth?: {
    /** Whether a browser sign-in may start (default false: a sign-in is then an error). */
    interactive?: boolean;
    /** Shows the sign-in URL to the user. */
    onSignIn?: (url: string) => void | Promise<void>;
    /** `jn auth login`: start over with these settings. */
    login?: LoginSettings;
  };
  /** Aborting it cancels the requests in flight and fails them with InterruptedError. */
  signal?: AbortSignal;
  /**
   * Never go through a session (docs/session.md): start the server (or reach
   * it) for this connection even when a session of the source is running.
   */
  noSession?: boolean;
  /**
   * Pass the server's requests (sampling, elicitation, roots) and
   * notifications to another MCP peer instead of answering them (what
   * `serve` does with its host): `elicit`, `sample` and `samplingCommand`
   * are then not used; `roots` still win over the peer's. What is handed
   * to it is redacted.
   */
  relay?: Relay;
  /** What jn tells the caller while it works. */
  events?: ClientEvents;
}

/** The session a connection goes through (docs/session.md). */
export interface SessionUse {
  /** The source the session was started with. */
  source: string;
  /** The session's process. */
  pid: number;
  /** Its socket. */
  socket: string;
  /** When it started (ISO 8601). */
  started: string;
}

/** The sandbox a launch runs in: the policy asked for, and what the server sees. */
export interface SandboxInfo {
  /** The profile's policy merged with the caller's. */
  policy: SandboxPolicy;
  /** What the server sees (absent for a launch jn does not confine itself). */
  plan?: SandboxPlan;
  /** The caller's HOME (for the failure hint's choice of directory). */
  home?: string;
}

/** The launch a connection starts, ready: sandboxed, with its Deno permissions and variables. */
export interface PreparedLaunch {
  /** What is started (argv, environment) or reached (URL). */
  launch: LaunchSpec;
  /** The sandbox it runs in, when it is confined. */
  sandbox?: SandboxInfo;
  /** Values that must never be shown: `${VAR}` substitutions, tokens, credential headers. */
  secrets: readonly string[];
}

/**
 * What jn tells the caller while it connects and calls. Every text that can
 * carry a secret is redacted before it is handed over; server text is given
 * as the server sent it (make it visible before printing it to a terminal:
 * lib/output/visible.ts). A handler that returns a promise is awaited where
 * jn's own flow calls it (prepared, connected, notices, drift), so what it
 * prints comes out in order.
 */
export interface ClientEvents {
  /** Something the user should know: what the sandbox left out, a declined sampling request. */
  onNotice?(message: string): void | Promise<void>;
  /** The launch is ready to start (before the server starts). */
  onPrepared?(prepared: PreparedLaunch): void | Promise<void>;
  /** The handshake is done. */
  onConnected?(session: Session): void | Promise<void>;
  /** The connection goes through a running session of the source (before the handshake). */
  onSession?(session: SessionUse): void | Promise<void>;
  /** The profile's schema has changed (`stop`: a DriftError follows). */
  onDrift?(drift: DriftVerdict): void | Promise<void>;
  /** A tool's result differs from the profile's `output_format` (a behavioural change). */
  onOutputFormat?(drift: OutputFormatDrift): void | Promise<void>;
  /** A server log message at or above `logLevel`. */
  onLog?(entry: LogEntry): void;
  /** A whole line the server wrote to stderr (stdio); given, stderr is read live. */
  onStderr?(line: string): void;
  /** A line the server wrote to stdout that is not JSON-RPC (ignored). */
  onNoise?(line: string): void;
  /** Every JSON-RPC message, both ways, as JSON text. */
  onTrace?(direction: "send" | "recv", text: string): void;
  /** Out-of-band problems that do not fail the run. */
  onWarning?(message: string): void;
  /** A remote server only speaks legacy SSE. */
  onFallback?(reason: string): void;
  /** The server ended the connection by itself (it exited, or closed it): why. At most once. */
  onEnded?(error: JnError): void;
}

/** Whether a log entry's level is at or above the threshold (unknown levels count as `info`). */
export function levelAtLeast(level: string, threshold: LogLevel): boolean {
  const index = LOG_LEVELS.indexOf(level as LogLevel);
  return (index === -1 ? 1 : index) >= LOG_LEVELS.indexOf(threshold);
}
