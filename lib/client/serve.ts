/**
 * `serve`: sources (profiles or naked URIs) served to an MCP host, over
 * stdio (how hosts start a server) or Streamable HTTP, through a proxy that
 * passes everything through both ways (lib/serve). Each source is opened by
 * {@linkcode open} with the caller's options, exactly as `cat` opens it —
 * resolution, trust, environment, sandbox, drift — once per downstream
 * session; what its server sends the host is redacted; its tools pass the
 * `filter` (curation and pinning) first.
 *
 * Guarantees: a source that cannot be resolved (a malformed URI, a missing
 * or untrusted profile) fails `serve()` itself before anything starts; a
 * source that fails to start is reported (`onSourceFailed`) and listed as
 * failed to the host while the others serve; a naked URI is reported as
 * unpinned once; stdin's end (the host quit), `close()` or the `signal` end
 * every source's process tree, and then `done` resolves (it never rejects).
 *
 * @module
 */

import { type JnError, UsageError } from "../errors.ts";
import type { CallRecord, ServeSource, WithheldTool } from "../serve/types.ts";
import { VERSION } from "../version.ts";
import { parseSource } from "../uri/parse.ts";
import { type ClientEvents, type OpenOptions, SERVE_DEFAULTS } from "./options.ts";
import { resolveTarget } from "./resolve.ts";
import { openAudit } from "./serve_audit.ts";
import { curatedOffer } from "./curate.ts";
import { openSource, type ToolFilter } from "./serve_source.ts";

export { offerAll, type ToolFilter } from "./serve_source.ts";
export type { CallRecord, ToolAlias, ToolOffer, WithheldTool } from "../serve/types.ts";

/** What `serve` tells the caller while it serves. */
export interface ServeEvents {
  /** The events of one source's connections (its stderr, logs, drift, notices). */
  source?(name: string): ClientEvents;
  /** Something the user should know (a source served unpinned). */
  onNotice?(message: string): void;
  /** A source did not start; the others serve. */
  onSourceFailed?(source: string, error: Error): void;
  /** The filter withheld tools of a source. */
  onWithheld?(source: string, withheld: WithheldTool[]): void;
  /** A source's server died and is started again (`attempt` from 1). */
  onRestart?(source: string, attempt: number, reason: JnError): void;
  /** A tool call ended (also what `audit` writes). */
  onCall?(record: CallRecord): void;
  /** Something went wrong that does not stop serving; may quote what the host sent. */
  onWarning?(message: string): void;
}

/** Serving over Streamable HTTP instead of stdio. */
export interface HttpServeOptions {
  /** The address to bind (default `127.0.0.1`). */
  host?: string;
  /** The port (0: any free one). */
  port: number;
  /** The bearer token every request must carry; required for a non-loopback `host`. */
  token?: string;
  /** Host names accepted in `Host` besides the bound one and loopback names. */
  allowedHosts?: string[];
  /** Origin host names accepted besides loopback ones (requests without Origin pass). */
  allowedOrigins?: string[];
  /** A downstream session idle this long (ms) is ended with its servers. Default 30 minutes. */
  idleMs?: number;
  /** The most 2025 host sessions at once (each starts every source's server). Default 32. */
  maxSessions?: number;
}

/** Options of {@linkcode serve}: how to open each source (as for `open`), and how to serve. */
export interface ServeOptions extends Omit<OpenOptions, "events" | "relay"> {
  /** Serve Streamable HTTP instead of stdio. */
  http?: HttpServeOptions;
  /**
   * What of each source's tools the host is offered. Default: the profile's
   * curation and pinning ({@linkcode curatedOffer}: `allow_tools`/`deny_tools`, its tools
   * with their fixed arguments, drifted and unknown tools withheld); `offerAll` offers every
   * tool as the server lists it.
   */
  filter?: ToolFilter;
  /** Append one NDJSON line per tool call to this file (argument values are not written). */
  audit?: string;
  /** The longest name offered with several sources (default 64). */
  maxNameLength?: number;
  /** How often a source whose server died is started again, at most (default 3). */
  restarts?: number;
  /** The pause before the first restart in ms, doubling each time (default 500). */
  restartBackoffMs?: number;
  /** stdio only: where the host's messages come from and go (default: this process's stdin/stdout). */
  stdio?: { input?: ReadableStream<Uint8Array>; output?: WritableStream<Uint8Array> };
  /** What serve tells the caller while it serves (per source: `events.source`). */
  events?: ServeEvents;
}

/** A running `serve`. */
export interface ServeHandle extends AsyncDisposable {
  /** The sources' namespaces, in order. */
  readonly sources: readonly string[];
  /** HTTP: the endpoint's URL (`http://127.0.0.1:PORT/mcp`). */
  readonly url?: string;
  /** HTTP: the bound address. */
  readonly address?: { hostname: string; port: number };
  /** Resolves when serving has ended and every source's server with it. */
  readonly done: Promise<void>;
  /** Ends serving and every source's server. Idempotent. */
  close(): Promise<void>;
}

export { SERVE_DEFAULTS };

/**
 * Serves sources to an MCP host: stdio by default, Streamable HTTP with
 * `http`. One source keeps its names; several are namespaced `SOURCE__NAME`.
 *
 * @example Serve the demo server over HTTP, and call it as a host would
 * ```ts
 * import { call, open, serve } from "@jn/jn";
 *
 * const options = { cwd: Deno.cwd(), env: Deno.env.toObject() };
 * await using served = await serve(["@demo"], { ...options, http: { port: 0 } });
 * await using conn = await open(`mcp+${served.url}`, options);
 * console.log((await call(conn, "add", { a: 2, b: 40 })).structuredContent); // { sum: 42 }
 * ```
 */
export async function serve(
  sources: readonly string[],
  options: ServeOptions,
): Promise<ServeHandle> {
  if (sources.length === 0) {
    throw new UsageError("Nothing to serve", { hint: "name a profile (@server) or a naked URI" });
  }
  const events = options.events ?? {};
  const { sourceAlias, uniqueAliases } = await import("../serve/names.ts");
  const names = uniqueAliases(sources.map(sourceAlias));
  for (const text of sources) {
    const source = parseSource(text);
    if (source.operation.kind !== "none") {
      throw new UsageError(`serve takes servers, not operations: "${text}" names one`, {
        hint:
          "serve the server (@server or the URI without tool=, resource=, prompt=, list=, task=)",
      });
    }
    // Resolved now so that a missing or untrusted profile fails before serving.
    await resolveTarget(source, options);
  }
  // Curation and pinning (lib/client/curate.ts) unless the caller gives its own filter; what the
  // filter notes (nothing pinned for a URI, tools without a snapshot) is said once.
  const noted = new Set<string>();
  const chosen = options.filter ?? curatedOffer({ ignoreSchema: options.ignoreSchema });
  const offer: ToolFilter = async (conn, tools) => {
    const result = await chosen(conn, tools);
    for (const note of result.notes ?? []) {
      if (noted.has(note)) continue;
      noted.add(note);
      events.onNotice?.(note);
    }
    return result;
  };
  const audit = options.audit
    ? await openAudit(options.audit, (message) => events.onWarning?.(message))
    : undefined;
  const { http: _http, filter: _filter, stdio: _stdio, ...open } = options;
  const served: ServeSource[] = sources.map((source, index) => {
    const name = names[index];
    return {
      name,
      open: (host) =>
        openSource({
          source,
          name,
          open: { ...open, events: events.source?.(name) },
          filter: offer,
          restarts: options.restarts ?? SERVE_DEFAULTS.restarts,
          backoffMs: options.restartBackoffMs ?? SERVE_DEFAULTS.restartBackoffMs,
          onRestart: (attempt, reason) => events.onRestart?.(name, attempt, reason),
        }, host),
    };
  });
  const proxy = {
    sources: served,
    jn: { name: "jn", version: VERSION },
    maxNameLength: options.maxNameLength,
    events: {
      onSourceFailed: events.onSourceFailed,
      onWithheld: events.onWithheld,
      onWarning: events.onWarning,
      // Only when someone reads them: a call's record costs a little each time.
      onCall: audit || events.onCall
        ? (record: CallRecord) => {
          audit?.write(record);
          events.onCall?.(record);
        }
        : undefined,
    },
  };
  const running: {
    done: Promise<void>;
    close(): Promise<void>;
    url?: string;
    address?: ServeHandle["address"];
  } = options.http
    ? await (await import("../serve/http.ts")).serveOverHttp({
      ...proxy,
      ...options.http,
      idleMs: options.http.idleMs ?? SERVE_DEFAULTS.idleMs,
      maxSessions: options.http.maxSessions ?? SERVE_DEFAULTS.maxSessions,
    })
    : (await import("../serve/stdio.ts")).serveOverStdio({ ...proxy, ...options.stdio });
  const onAbort = () => void running.close();
  options.signal?.addEventListener("abort", onAbort, { once: true });
  if (options.signal?.aborted) onAbort();
  const done = running.done.then(async () => {
    options.signal?.removeEventListener("abort", onAbort);
    await audit?.close();
  });
  const close = async () => {
    await running.close();
    await done;
  };
  return {
    sources: names,
    url: running.url,
    address: running.address,
    done,
    close,
    [Symbol.asyncDispose]: close,
  };
}
