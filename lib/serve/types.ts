/**
 * What the proxy of lib/serve works with, free of any SDK: the upstream
 * servers it forwards to (lib/client/serve.ts makes them from connections,
 * with jn's policy), the host's side it gives each of them, the offer of
 * tools a filter makes (the seam of curation and pinning), and the events it
 * reports. Types only.
 *
 * @module
 */

import type { ForwardOptions, Session, WatchFilter } from "../session/types.ts";
import type { JsonObject, ToolInfo } from "../types.ts";

export type { ForwardOptions, WatchFilter };

/** A tool the filter keeps from the host, and why (in one line, for people). */
export interface WithheldTool {
  /** The name it would be offered under. */
  name: string;
  /** Why it is withheld: shown on stderr and to the host, and in the refusal of a call. */
  reason: string;
  /** What to run about it (`review: jn profile diff @p; approve: jn profile update @p`). */
  fix?: string;
}

/**
 * An offered tool that calls another of the server's tools with arguments
 * filled in (a profile's alias with `defaults`).
 */
export interface ToolAlias {
  /** The server's tool to call. */
  tool: string;
  /** Arguments the profile fixes: always sent, and a host's call that gives one is refused. */
  defaults?: JsonObject;
}

/** What a server's tools become for the host: offered, withheld, and aliases among the offered. */
export interface ToolOffer {
  /** The tools the host sees (in the server's names; the proxy namespaces them). */
  offered: ToolInfo[];
  /** The tools the host does not see; a call of one is refused with its reason. */
  withheld: WithheldTool[];
  /** Offered names that call another tool (by offered name). */
  aliases?: Record<string, ToolAlias>;
  /** What the user should know about this offer, one line each (said once per source). */
  notes?: string[];
}

/** What the server said about itself when its session opened. */
export interface UpstreamIdentity {
  name?: string;
  version?: string;
  /** Its capabilities, as it declared them. */
  capabilities: JsonObject;
  instructions?: string;
  /** The protocol era of its session. */
  era?: "legacy" | "modern";
  /** The protocol revision its session negotiated. */
  protocolVersion?: string;
}

/**
 * One upstream server as the proxy sees it: what it said about itself, its
 * tools after the filter, and the pass-through methods of its session
 * (`forward`, `notify`, `watch`, `close`: see lib/session/types.ts).
 */
export interface Upstream extends Pick<Session, "forward" | "notify" | "watch" | "close"> {
  /** The server's identity and capabilities. */
  readonly server: UpstreamIdentity;
  /** Its tools after the filter (kept until the server says its list changed). */
  tools(): Promise<ToolOffer>;
}

/** The host's side of one upstream: what the server may ask of the host, and tell it. */
export interface HostSide {
  /** The host's client capabilities (what to offer the server, no more). */
  capabilities: JsonObject;
  /** The host's era, when known: a server is best spoken to in the same one. */
  era?: "legacy" | "modern";
  /** A server→client request (sampling, elicitation, roots), answered by the host. */
  request(method: string, params: JsonObject, signal: AbortSignal): Promise<JsonObject>;
  /** A notification of the server (lists changed, a resource updated, a log message, …). */
  notification(method: string, params: JsonObject | undefined): void;
}

/** One source to serve: its namespace and how to open its server for one downstream session. */
export interface ServeSource {
  /** The source's namespace (lib/serve/names.ts `sourceAlias`). */
  name: string;
  /** Opens the server for one downstream session, its requests and notifications going to `host`. */
  open(host: HostSide): Promise<Upstream>;
}

/** One call of a tool, for the audit log: argument values are never recorded. */
export interface CallRecord {
  /** When the call arrived (ISO 8601). */
  time: string;
  /** The source's namespace. */
  source: string;
  /** The server's name of the tool. */
  tool: string;
  /** The names of the arguments the host gave (values redacted: not recorded). */
  arguments: string[];
  /** `ok`, `tool_error` (an `isError` result), `refused`, `error`, or `cancelled`. */
  outcome: "ok" | "tool_error" | "refused" | "error" | "cancelled";
  /** How long it took, in ms. */
  duration_ms: number;
}

/** What the proxy reports while it serves. Texts are jn's (server text is not in them). */
export interface ProxyEvents {
  /** A source did not start (the others keep serving). */
  onSourceFailed?(source: string, error: Error): void;
  /** The filter withheld tools of a source (at start and on each change of its list). */
  onWithheld?(source: string, withheld: WithheldTool[]): void;
  /** A tool call ended. */
  onCall?(record: CallRecord): void;
  /** Something went wrong that does not stop serving (a malformed message from the host, …). */
  onWarning?(message: string): void;
}
