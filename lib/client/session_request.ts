/**
 * What `session start` and the session's own process say to each other
 * (session_start.ts, session_run.ts): the request, on the process's stdin
 * (never argv: it holds the caller's environment), and the start reports,
 * one JSON line each on its stdout, until the session serves or failed.
 * Types only: plain data, as it travels.
 *
 * @module
 */

import type { SessionRecord } from "./session_record.ts";
import type { OpenOptions } from "./options.ts";

/** The launch options a session is started with (plain data: they travel through a pipe). */
export type SessionLaunchOptions = Pick<
  OpenOptions,
  | "timeoutMs"
  | "connectTimeoutMs"
  | "protocol"
  | "logLevel"
  | "sandbox"
  | "envPassthrough"
  | "headers"
  | "tokenEnv"
  | "allowHttp"
  | "roots"
  | "ignoreSchema"
  | "samplingCommand"
>;

/** What `session start` hands the session's process, on its stdin (never in argv). */
export interface SessionRequest {
  /** The source, a server (no operation). */
  source: string;
  cwd: string;
  env: Record<string, string>;
  options: SessionLaunchOptions;
  /** The idle limit (ms; 0: until stopped). */
  idleMs: number;
}

/** What the session's process tells `session start`, one message at a time, until it is ready. */
export type StartReport =
  | { event: "onNotice" | "onWarning"; value: string }
  | { event: "onDrift"; value: unknown }
  | { ready: SessionRecord }
  | { error: { name: string; message: string; hint?: string } };
