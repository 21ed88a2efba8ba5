/**
 * `startSession`: a source kept alive in a session of its own (a background
 * jn process, session_run.ts) that every later call of the source goes
 * through (session_lookup.ts) until it ends.
 *
 * Guarantees: the source is resolved here first, so an untrusted project
 * profile or a malformed URI is refused as a call refuses it, before
 * anything starts; starting is serialized per source by a lock, so two
 * starts at once give one session (the second finds the first, or, with
 * other launch options, says so); a session whose process is gone is
 * cleared first, so it blocks nothing; the session's process gets its
 * request through a pipe (nothing secret in its argv), leads a process
 * group of its own, away from the terminal, and writes nothing to it; the
 * start returns once the session serves, or throws the very error (class,
 * message, hint) that stopped it, leaving nothing running.
 *
 * @module
 */

import { ConnectionError, UsageError } from "../errors.ts";
import { LineSplitter } from "../ndjson/split.ts";
import { selfCommand } from "../profile/self_command.ts";
import { parseSource } from "../uri/parse.ts";
import type { ClientEvents } from "./options.ts";
import { OPEN_DEFAULTS, SESSION_DEFAULTS } from "./options.ts";
import { sessionSettings } from "./remote.ts";
import { resolveTarget } from "./resolve.ts";
import {
  ensurePrivateDir,
  openPrivateFile,
  requireSessions,
  type SessionFiles,
  sessionFiles,
} from "./session_paths.ts";
import { jnErrorOf } from "./session_errors.ts";
import { answering, readRecord, removeSessionFiles, type SessionRecord } from "./session_record.ts";
import type { SessionLaunchOptions, SessionRequest, StartReport } from "./session_request.ts";
import {
  differencesText,
  launchShape,
  sessionKey,
  shapeDifferences,
  sourceIdentity,
} from "./session_shape.ts";

/** Options of {@linkcode startSession}: where from, how to launch, how long to keep it. */
export interface SessionStartOptions extends SessionLaunchOptions {
  /** The caller's directory (as `OpenOptions.cwd`). */
  cwd: string;
  /** The caller's environment (as `OpenOptions.env`): the session's process gets it through a pipe. */
  env: Record<string, string>;
  /** End the session after this long without a call (ms); 0: until stopped. Default 15 minutes. */
  idleMs?: number;
  /** What the start says: notices, drift, debug warnings (as a call's events). */
  events?: Pick<ClientEvents, "onNotice" | "onWarning" | "onDrift">;
  /** Aborting it while the session starts ends the session's process, and the start fails. */
  signal?: AbortSignal;
}

/** A session that runs. */
export interface SessionStarted {
  /** The session's record. */
  record: SessionRecord;
  /** It was already running (with the same launch options). */
  existing: boolean;
}

/** How much longer than the connect bound `start` waits for the session's process. */
const START_MARGIN_MS = 15_000;

/**
 * Starts a session of a source (or finds the one that runs).
 *
 * @example
 * ```ts ignore
 * import { startSession, stopSession } from "@jn/jn";
 *
 * const options = { cwd: Deno.cwd(), env: Deno.env.toObject() };
 * const { record } = await startSession("@demo", options);
 * console.log(record.pid); // every call of @demo goes through it now
 * await stopSession("@demo", options);
 * ```
 */
export async function startSession(
  source: string,
  options: SessionStartOptions,
): Promise<SessionStarted> {
  requireSessions();
  const parsed = parseSource(source);
  if (parsed.operation.kind !== "none") {
    throw new UsageError(`A session holds a server, not an operation: "${source}" names one`, {
      hint: "start the server (@server or the URI without tool=, resource=, prompt=, list=, task=)",
    });
  }
  const { events, idleMs, cwd, env, signal, ...launch } = options;
  const open = { ...launch, cwd, env, noSession: true };
  // Resolved here: an untrusted profile is refused before anything starts.
  const target = await resolveTarget(parsed, open);
  const dir = await ensurePrivateDir(env);
  const files = sessionFiles(dir, await sessionKey(sourceIdentity(target)));
  const lock = await openPrivateFile(files.lock);
  try {
    await lock.lock(true);
    const running = await readRecord(files);
    if (running !== undefined && await answering(running)) {
      const settings = await sessionSettings(target, open);
      const shape = await launchShape(target, open, settings, running.salt);
      const differs = shapeDifferences(running.shape, shape);
      if (differs.length === 0) return { record: running, existing: true };
      throw new UsageError(
        `A session of ${target.name} already runs with other launch options: ${
          differencesText(differs)
        }`,
        { hint: `stop it first: jn session stop ${source}` },
      );
    }
    await removeSessionFiles(files);
    await Deno.remove(files.ended).catch(() => {});
    const request: SessionRequest = {
      source,
      cwd,
      env,
      options: launch,
      idleMs: idleMs ?? SESSION_DEFAULTS.idleMs,
    };
    const record = await spawnSession(request, files, {
      events: events ?? {},
      connectTimeoutMs: launch.connectTimeoutMs,
      signal,
    });
    return { record, existing: false };
  } finally {
    await lock.unlock().catch(() => {});
    lock.close();
  }
}

/** Starts the session's process and waits for it to serve. */
async function spawnSession(
  request: SessionRequest,
  files: SessionFiles,
  options: {
    events: NonNullable<SessionStartOptions["events"]>;
    connectTimeoutMs?: number;
    signal?: AbortSignal;
  },
): Promise<SessionRecord> {
  const { events, connectTimeoutMs, signal } = options;
  const { spawn } = await import("node:child_process");
  const process = (await import("node:process")).default;
  const self = selfCommand(["session", "_run"]);
  const child = spawn(self.command, self.args, {
    cwd: request.cwd,
    env: request.env,
    detached: true,
    stdio: ["pipe", "pipe", "ignore"],
  });
  child.stdin!.end(JSON.stringify(request));
  const bound = connectTimeoutMs ?? OPEN_DEFAULTS.connectTimeoutMs;
  // Its process ends its server on SIGTERM, as on any stop.
  const end = () => {
    try {
      process.kill(child.pid!, "SIGTERM");
    } catch { /* gone */ }
  };
  const timer = bound > 0 ? setTimeout(end, bound + START_MARGIN_MS) : undefined;
  let outcome: SessionRecord | Error | undefined;
  const onAbort = () => {
    outcome = signal!.reason instanceof Error ? signal!.reason : new Error(String(signal!.reason));
    end();
  };
  signal?.addEventListener("abort", onAbort, { once: true });
  const pending: Promise<void>[] = [];
  const splitter = new LineSplitter({
    line: (text) => {
      let message: StartReport;
      try {
        message = JSON.parse(text);
      } catch {
        return;
      }
      if ("ready" in message) outcome = message.ready;
      else if ("error" in message) {
        outcome = jnErrorOf(message.error.name, message.error.message, message.error.hint);
      } else if (message.event === "onDrift") {
        pending.push(Promise.resolve(events.onDrift?.(message.value as never)));
      } else pending.push(Promise.resolve(events[message.event]?.(message.value)));
    },
  }, { maxBytes: 16 * 1024 * 1024 });
  try {
    for await (const chunk of child.stdout!) {
      splitter.push(chunk as Uint8Array);
      if (outcome !== undefined) break;
    }
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", onAbort);
    child.stdout!.destroy();
    child.unref();
  }
  await Promise.all(pending);
  if (outcome instanceof Error) throw outcome;
  if (outcome !== undefined) return outcome;
  throw new ConnectionError(`The session of ${request.source} ended before it served`, {
    hint: `its log may say why: ${files.log}`,
  });
}
