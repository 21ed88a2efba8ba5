/**
 * The session's own process (`jn session _run`, started by session_start.ts):
 * it opens the source through {@linkcode open} — resolution, trust,
 * environment, sandbox, drift: the policy of every call — and serves it with
 * the proxy of `jn serve` (lib/serve/shared.ts: one upstream, many
 * downstream connections) on a Unix socket in the private directory, until
 * it is stopped, idles out, or its server dies.
 *
 * Guarantees: until it is ready, everything the start says (notices, drift,
 * the error that stopped it) goes to `report`, and the record is written
 * only once the socket serves; a call is served only while a project
 * profile is as it was trusted (session_trust.ts, checked on every
 * connection and request); the session ends — its connections, its server's
 * whole process tree, its socket and record — on `stop` (SIGTERM, SIGHUP,
 * SIGINT), after `idleMs` without a connection or request (0: never), when
 * its server dies and when its profile's trust no longer holds; the last
 * two leave a note that the source's later calls get (exit 4 and what to
 * do). The log has jn's own lines only, never a secret.
 *
 * @module
 */

import { InterruptedError } from "../errors.ts";
import type { ServeSource, Upstream } from "../serve/types.ts";
import { VERSION } from "../version.ts";
import type { ClientEvents, OpenOptions } from "./options.ts";
import { sessionSettings } from "./remote.ts";
import { resolveTarget, targetShortName } from "./resolve.ts";
import { offerAll, openSource } from "./serve_source.ts";
import { markedUpstream, markFailure, untiedNotice } from "./session_errors.ts";
import type { SessionRequest, StartReport } from "./session_request.ts";
import { ensurePrivateDir, pathExists, requireSessions, sessionFiles } from "./session_paths.ts";
import { removeSessionFiles, type SessionRecord, writeEnd, writeRecord } from "./session_record.ts";
import { launchShape, newSalt, sessionKey, sourceIdentity } from "./session_shape.ts";
import { TrustWatch } from "./session_trust.ts";
import { SessionLog } from "./session_log.ts";
import { acceptConnections, type SessionDoors } from "./session_accept.ts";
import { registerLocalSession, type ServedEnd } from "./session_local.ts";

/** The requests that count as calls in `session list`. */
const CALLS = new Set(["tools/call", "resources/read", "prompts/get", "completion/complete"]);

/** In ms: how often a session looks at its files (and a project profile's) between calls; how
 * long one whose profile changed still answers (refusing) before it ends; how long record
 * updates are held back, to write one for a burst of calls. */
const [LOOK_MS, REFUSAL_FLUSH_MS, RECORD_DELAY_MS] = [2000, 250, 200];

/** Runs a session until it ends. A failure before it is ready is thrown (and nothing runs). */
export async function runSession(
  request: SessionRequest,
  report: (message: StartReport) => Promise<void>,
  doors: Pick<SessionDoors, "forward"> = {},
): Promise<void> {
  requireSessions();
  const log = new SessionLog();
  // A stray failure (of a forwarded command, say) must not end the session and its server's
  // state: kept from ending the process before anything else may act on it (live_trees.ts).
  globalThis.addEventListener("unhandledrejection", (event) => {
    event.preventDefault();
    log.line(`warning: a stray ${(event.reason as Error)?.name ?? "failure"} was ignored`);
  });
  // A stop before the session serves abandons the start; after, it ends the session.
  const starting = new AbortController();
  let end = (_reason: string, _crashed: boolean) => starting.abort(new InterruptedError());
  const signals = (["SIGTERM", "SIGHUP", "SIGINT"] as const).map((signal) => {
    const listen = () => end(`stopped (${signal})`, false);
    Deno.addSignalListener(signal, listen);
    return () => Deno.removeSignalListener(signal, listen);
  });
  try {
    const session = await startServing(
      request,
      { report, log, signal: starting.signal, forward: doors.forward },
      (reason, crashed) => end(reason, crashed),
    );
    const { reason, crashed } = await new Promise<{ reason: string; crashed: boolean }>(
      (resolve) => {
        end = (reason, crashed) => resolve({ reason, crashed });
        session.onIdle = () => end("idle", false);
      },
    );
    log.line(`ending: ${reason}`);
    await session.close(crashed ? reason : undefined);
    log.line("ended");
  } finally {
    for (const remove of signals) remove();
  }
}

/** A session that serves. */
interface Serving {
  /** Called when the idle limit has passed. */
  onIdle?: () => void;
  /** Ends it; `crashed`: why, for the note its calls get. */
  close(crashed?: string): Promise<void>;
}

/** Opens the source, serves it on the socket, writes the record and reports ready. */
async function startServing(
  request: SessionRequest,
  context: Pick<SessionDoors, "forward"> & {
    report: (message: StartReport) => Promise<void>;
    log: SessionLog;
    signal: AbortSignal;
  },
  end: (reason: string, crashed: boolean) => void,
): Promise<Serving> {
  const { source, cwd, env } = request;
  const { report, log, signal } = context;
  let ready = false;
  const say = (event: "onNotice" | "onWarning", value: string) => {
    log.line(`${event === "onNotice" ? "notice" : "warning"}: ${value}`);
    if (!ready) void report({ event, value });
  };
  const events: ClientEvents = {
    onNotice: (message) => say("onNotice", message),
    onWarning: (message) => say("onWarning", message),
    onDrift: (drift) => {
      log.line(`drift: ${drift.report.status}${drift.stop ? " (breaking)" : ""}`);
      if (!ready) return report({ event: "onDrift", value: drift });
    },
    onEnded: (error) => end(`its server ended: ${error.message}`, true),
  };
  const options: OpenOptions = {
    ...request.options,
    cwd,
    env,
    noSession: true,
    auth: { interactive: false },
    signal,
    events,
  };
  const target = await resolveTarget(source, options);
  const dir = await ensurePrivateDir(env);
  const files = sessionFiles(dir, await sessionKey(sourceIdentity(target)));
  await log.open(files.log);
  log.line(`starting ${target.name} (jn ${VERSION}, pid ${Deno.pid})`);
  const salt = newSalt();
  const nonce = newSalt();
  const shape = await launchShape(target, options, await sessionSettings(target, options), salt);
  const trust = TrustWatch.needed(target.profile)
    ? new TrustWatch(source, target.profile, options)
    : undefined;
  await trust?.start();
  let sandboxed = false;
  let upstream: Upstream | undefined;
  const served: ServeSource = {
    name: target.name,
    open: async (host) => {
      upstream = await openSource({
        source,
        name: target.name,
        open: {
          ...options,
          events: {
            ...events,
            onPrepared: (prepared) => void (sandboxed = prepared.sandbox !== undefined),
          },
        },
        filter: offerAll,
        restarts: 0,
        backoffMs: 0,
        redact: false,
      }, host);
      return markedUpstream(upstream, nonce);
    },
  };
  let untrusted: unknown;
  const gate = async () => {
    if (untrusted !== undefined) throw markFailure(untrusted, nonce);
    try {
      await trust?.check();
    } catch (error) {
      untrusted = error;
      // Ended once the refusal has reached whoever asked.
      setTimeout(() => end((error as Error).message, true), REFUSAL_FLUSH_MS);
      throw markFailure(error, nonce);
    }
  };
  const [{ serveShared }, { hostError }] = await Promise.all([
    import("../serve/shared.ts"),
    import("../serve/errors.ts"),
  ]);
  const sampling = Boolean(options.samplingCommand || target.samplingCommand);
  const record = {} as SessionRecord;
  let lastActive = Date.now();
  let pending: ReturnType<typeof setTimeout> | undefined;
  let written = 0;
  const activity = (message: unknown) => {
    lastActive = Date.now();
    const method = (message as { method?: unknown })?.method;
    if (typeof method === "string" && CALLS.has(method)) record.calls++;
    if (!ready || pending !== undefined) return;
    // At once, unless it was written a moment ago: then one write for the burst.
    pending = setTimeout(() => {
      pending = undefined;
      written = Date.now();
      record.lastUsed = new Date(lastActive).toISOString();
      void writeRecord(files, record).catch(() => {});
    }, Math.max(0, written + RECORD_DELAY_MS - Date.now()));
  };
  const serving = await serveShared({
    sources: [served],
    jn: { name: "jn", version: VERSION },
    events: { onWarning: (message) => log.line(`warning: ${message}`) },
    asIs: true,
    gate: () => gate().catch((error) => Promise.reject(hostError(error))),
    client: {
      capabilities: { elicitation: { form: {}, url: {} }, ...(sampling ? { sampling: {} } : {}) },
    },
    onMessage: activity,
    untiedNote: (method) => untiedNotice(method, targetShortName(target), nonce),
  });
  let listener: Deno.UnixListener;
  try {
    await Deno.remove(files.socket).catch(() => {});
    listener = Deno.listen({ transport: "unix", path: files.socket });
    // Never through a symlink put in its place since.
    if (!(await Deno.lstat(files.socket)).isSocket) throw new Error(`${files.socket} was replaced`);
    await Deno.chmod(files.socket, 0o600);
    const server = upstream!.server;
    const now = new Date().toISOString();
    Object.assign(
      record,
      {
        version: VERSION,
        source,
        name: target.name,
        pid: Deno.pid,
        socket: files.socket,
        log: files.log,
        cwd,
        started: now,
        lastUsed: now,
        calls: 0,
        idleMs: request.idleMs,
        sandboxed,
        era: server.era,
        protocolVersion: server.protocolVersion,
        salt,
        shape,
        nonce,
      } satisfies SessionRecord,
    );
    await writeRecord(files, record);
    await Deno.remove(files.ended).catch(() => {});
  } catch (error) {
    await serving.close();
    await removeSessionFiles(files);
    throw error;
  }
  ready = true;
  log.line(`serving ${target.name} on ${files.socket} (pid ${Deno.pid})`);
  await report({ ready: record });
  // Served even when the profile changed (each request is then refused with the reason); a
  // new connection is a moment to look. A forwarded command's own calls come back in memory.
  const serve = (end: ServedEnd) => {
    serving.serve(end);
    void gate().catch(() => {});
  };
  const unregister = registerLocalSession(files.socket, serve);
  const accepting = acceptConnections(listener, { serve, forward: context.forward });
  // Between calls: trust holds only while the profile is as it was, and a session whose
  // socket or record was removed (its directory deleted, a stop that missed it) is over.
  const watch = setInterval(async () => {
    if (!(await pathExists(files.socket)) || !(await pathExists(files.info))) {
      return end("its socket or record was removed", false);
    }
    if (trust) await gate().catch(() => {});
  }, LOOK_MS);
  const result: Serving = {
    // The record goes first (calls stop finding the session), the socket last: `stop` waits
    // for it, and by then the server's tree has ended.
    async close(crashed) {
      clearInterval(idle);
      clearInterval(watch);
      clearTimeout(pending);
      listener.close();
      unregister();
      // The note first: a call between the two finds why, never nothing.
      if (crashed !== undefined) await writeEnd(files, record, crashed);
      await Deno.remove(files.info).catch(() => {});
      await serving.close();
      await Deno.remove(files.socket).catch(() => {});
    },
  };
  const idle = request.idleMs > 0
    ? setInterval(() => {
      const busy = serving.connections > 0 || serving.busy || accepting.forwarding > 0;
      if (busy) return void (lastActive = Date.now());
      if (Date.now() - lastActive >= request.idleMs) result.onIdle?.();
    }, Math.max(50, Math.min(request.idleMs / 4, 30_000)))
    : undefined;
  return result;
}
