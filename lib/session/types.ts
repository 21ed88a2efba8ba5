/**
 * What a caller of lib/session gives and gets: the options of a session, the
 * session itself, and its per-call options. Types only, free of the SDK, so
 * the modules of lib/session can share them without importing each other in
 * a circle (session.ts opens sessions; sdk_session.ts implements them). It
 * is over 300 lines because it is the whole documented contract of a
 * session, each option and method with its guarantees, in one place.
 *
 * @module
 */

import type { AuthStore, CredentialSource, IdpSettings } from "../auth/token_store.ts";
import type { JnError } from "../errors.ts";
import type { Following, FollowTarget } from "./follow.ts";
import type {
  CompletionRef,
  CompletionResult,
  ElicitationRequest,
  ElicitationResponse,
  JsonObject,
  LogEntry,
  ProgressUpdate,
  PromptInfo,
  PromptResult,
  ResourceContents,
  ResourceInfo,
  ResourceTemplateInfo,
  RootInfo,
  SamplingRequest,
  SamplingResponse,
  ServerIdentity,
  TaskInfo,
  ToolCallResult,
  ToolInfo,
} from "../types.ts";

export type { Following, FollowTarget } from "./follow.ts";

/** Which protocol era to speak: negotiate (default), 2025 only, or one pinned revision. */
export type ProtocolMode = "auto" | "legacy" | { pin: string };

/**
 * A pass-through of what a server asks of its client, for a proxy (jn
 * serve): the server's requests go to another MCP peer (the host) and its
 * notifications are passed on as they came.
 */
export interface Relay {
  /**
   * The client capabilities to declare: of `sampling`, `elicitation` and
   * `roots`, what the host offered (nothing else is taken from it).
   */
  capabilities: JsonObject;
  /** A server→client request (`sampling/createMessage`, `elicitation/create`, `roots/list`), answered by the host. */
  request(method: string, params: JsonObject, signal: AbortSignal): Promise<JsonObject>;
  /**
   * A notification of the server as it came (every one but progress,
   * cancellation and the acknowledgement of jn's own subscription), its
   * reserved `io.modelcontextprotocol/` `_meta` keys removed.
   */
  notification(method: string, params: JsonObject | undefined): void;
}

/** What the client can do for the server. */
export interface ClientHandlers {
  /** Answers `elicitation/create`; without it elicitation is not advertised. */
  onElicit?: (request: ElicitationRequest) => Promise<ElicitationResponse>;
  /** Answers `sampling/createMessage` (rejecting refuses it); without it sampling is not advertised. */
  onSample?: (request: SamplingRequest) => Promise<SamplingResponse>;
  /** Roots to expose; without them roots are not advertised. */
  roots?: RootInfo[];
  /** Things the user should know about (a declined sampling request). */
  onNotice?: (message: string) => void;
  /**
   * Pass the server's requests and notifications to a host instead
   * (jn serve): its sampling and elicitation handlers replace the two above;
   * `roots` given here still win over the host's.
   */
  relay?: Relay;
}

/** What `jn auth login` asks for. */
export interface LoginSettings {
  /** A pre-registered client (no dynamic registration). */
  clientId?: string;
  /** Its secret (never printed). */
  clientSecret?: string;
  /** Use the client-credentials grant (machine to machine; needs id and secret). */
  clientCredentials?: boolean;
  /** The scope to ask for. */
  scope?: string;
  /** An HTTPS client ID metadata document to use as client_id where supported. */
  clientMetadataUrl?: string;
  /** Client credentials with `private_key_jwt`: where the private key is read. */
  privateKey?: CredentialSource;
  /** Its JWS algorithm (default: from the key). */
  signingAlg?: string;
  /** Workload identity (JWT bearer grant): where the JWT is read. */
  assertion?: CredentialSource;
  /** Cross-app access (identity assertion grant): the enterprise IdP. */
  idp?: IdpSettings;
  /** Ask for DPoP-bound tokens. */
  dpop?: boolean;
}

/** OAuth for remote servers. */
export interface SessionAuth {
  /** Where tokens live. */
  store: AuthStore;
  /** Whether a browser sign-in may start. */
  interactive: boolean;
  /** Shows a sign-in URL (print it, open a browser). */
  onSignIn?: (url: string) => void | Promise<void>;
  /** `jn auth login`: start over with these settings. */
  login?: LoginSettings;
  /**
   * Told every credential the OAuth layer holds, sends or obtains (tokens,
   * client secrets and assertions, workload JWTs, ID tokens, DPoP proofs,
   * `Authorization` values): the caller redacts them from what it prints.
   * A `transient` one is used once (a DPoP proof, a client assertion): the
   * caller need keep only the last few.
   */
  onSecret?: (value: string, transient: boolean) => void;
}

/** Options of {@linkcode openSession}. */
export interface SessionOptions extends ClientHandlers {
  /** Bound of each request in ms (progress resets it, up to 10 × in all); 0 disables both. */
  timeoutMs: number;
  /** Bound of the handshake in ms; 0 disables it. */
  connectTimeoutMs: number;
  /** The caller's environment, from which the child's is built. */
  callerEnv: Record<string, string>;
  /** Protocol era negotiation. Default `"auto"`. */
  protocol?: ProtocolMode;
  /** How long the era probe may take on stdio before falling back to 2025 (ms). */
  probeTimeoutMs?: number;
  /**
   * A 2025 revision to offer first in `initialize`, when this SDK supports
   * it (a jn session's proxy: the revision its server negotiated).
   */
  offerVersion?: string;
  /** Aborting it cancels requests in flight (`notifications/cancelled`) and fails with InterruptedError. */
  signal?: AbortSignal;
  /** Live server stderr (e.g. for `--debug`); a tail is always kept for error messages. */
  onStderr?: (text: string) => void;
  /** Non-JSON lines the server wrote to stdout. */
  onNoise?: (line: string) => void;
  /** `notifications/message` from the server. */
  onLog?: (entry: LogEntry) => void;
  /** A notification of no MCP method (a jn session's own: lib/client/session_errors.ts). */
  onOtherNotification?: (method: string, params: JsonObject | undefined) => void;
  /** Sent as `logging/setLevel` when the server supports logging. */
  logLevel?: string;
  /** Every JSON-RPC message, both ways (for `--debug`). */
  onTrace?: (direction: "send" | "recv", message: unknown) => void;
  /** Every request jn sends, by method (the caller bounds what a server may ask per request). */
  onRequest?: (method: string) => void;
  /** Allow cleartext `http://` to hosts other than loopback. */
  allowHttp?: boolean;
  /** OAuth for remote servers (skipped when the launch sends its own Authorization header). */
  auth?: SessionAuth;
  /** Out-of-band problems that do not fail the run (for `--debug`). */
  onWarning?: (message: string) => void;
  /** Called when a remote server only speaks legacy SSE (for `--debug`). */
  onFallback?: (reason: string) => void;
  /**
   * A Streamable HTTP session to join instead of opening one (a detached
   * task's, `?task=ID&session=SID`): no handshake, so the server's
   * capabilities are unknown; only the task requests are meant for it.
   */
  resumeSession?: string;
  /**
   * The session ended by itself (the server exited or closed the
   * connection), not by `close()`: why. Called at most once.
   */
  onEnd?: (error: JnError) => void;
}

/** Options of {@linkcode Session.forward}. */
export interface ForwardOptions {
  /** Aborting it cancels the request (`notifications/cancelled`). */
  signal?: AbortSignal;
  /** The request's progress notifications, as the server sent them (without its token). */
  onProgress?: (progress: JsonObject) => void;
  /** Bound of the request in ms (progress resets it); 0 = none. Default: the session's. */
  timeoutMs?: number;
  /**
   * Return a 2026-07-28 `input_required` result as it came, instead of
   * answering its requests through the session's handlers.
   */
  inputRequired?: boolean;
}

/** The change notifications a proxy wants: of lists, and of resources by URI. */
export interface WatchFilter {
  /** The lists whose `list_changed` notifications to receive (those the server announces). */
  lists: ("tools" | "resources" | "prompts")[];
  /** The resources whose `notifications/resources/updated` to receive. */
  resources: string[];
}

/** Per-call options. */
export interface ToolCallOptions {
  /** Progress notifications of this request. */
  onProgress?: (update: ProgressUpdate) => void;
}

/**
 * The requests of tasks (2025-11-25, SEP-1686), as is: when to use them is
 * lib/client's policy (lib/client/task.ts).
 */
export interface SessionTasks {
  /**
   * `tools/call` with `params.task`: the task the server created
   * (CreateTaskResult). Not aborted by the session's signal: a task created
   * while jn was interrupted must still be known, to be cancelled.
   */
  callTool(
    name: string,
    args: Record<string, unknown>,
    options?: { ttlMs?: number },
  ): Promise<TaskInfo>;
  /** `tasks/get`. */
  get(taskId: string): Promise<TaskInfo>;
  /**
   * `tasks/result`: the tool's result once the task is final (the server may
   * hold the request open and ask its questions meanwhile). `timeoutMs`
   * replaces the session's bound (0: none).
   */
  result(taskId: string, options?: { timeoutMs?: number }): Promise<ToolCallResult>;
  /**
   * `tasks/cancel`, sent even after the session's signal aborted (Ctrl-C),
   * bounded by a few seconds of its own.
   */
  cancel(taskId: string): Promise<TaskInfo>;
  /** `notifications/tasks/status` as the server sends them (it need not); returns the unsubscriber. */
  onStatus(listener: (task: TaskInfo) => void): () => void;
  /**
   * Keeps the HTTP session open when the session closes (servers may keep
   * tasks per session) and gives its id, if it has one.
   */
  keepSession(): string | undefined;
}

/** One page of `skills/list`: the entries as the server sent them, unchecked. */
export interface SkillsPage {
  /** The entries (lib/client checks each: lib/client/skill_entry.ts). */
  skills: unknown[];
  /** The cursor of the next page, when there is one. */
  nextCursor?: string;
}

/**
 * The requests of the skills extension (SEP-2640), as is: when to send them,
 * and what an entry must be, is lib/client's policy (lib/client/skills.ts).
 * A skill's files are read with {@linkcode Session.readResource}.
 */
export interface SessionSkills {
  /** `skills/list`, one page (`cursor`: the previous page's `nextCursor`). */
  list(cursor?: string): Promise<SkillsPage>;
  /** `skills/get`: the entry of the skill whose SKILL.md is at `uri`, unchecked. */
  get(uri: string): Promise<unknown>;
}

/** An open session. Close it in `finally`. */
export interface Session {
  /** A short name of the server for messages. */
  readonly label: string;
  /** What the server said about itself. */
  readonly server: ServerIdentity;
  /** How it is reached: `stdio`, `streamable-http`, `sse`, or `session` (a jn session's socket). */
  readonly transportKind?: "stdio" | "streamable-http" | "sse" | "session";
  /** The capabilities jn declared to the server (sampling, elicitation, roots, …). */
  readonly clientCapabilities?: JsonObject;
  /** `tools/list`, every page (cached: the tools of a session do not change under jn). */
  listTools(): Promise<ToolInfo[]>;
  /**
   * The tools the last `tools/list` left out because MCP's own types reject
   * them (by name, with the reason): a call of one is not a "not found".
   */
  leftOutTools?(): ReadonlyMap<string, string>;
  /** `resources/list`, every page. */
  listResources(): Promise<ResourceInfo[]>;
  /** `resources/templates/list`, every page. */
  listResourceTemplates(): Promise<ResourceTemplateInfo[]>;
  /** `prompts/list`, every page. */
  listPrompts(): Promise<PromptInfo[]>;
  /** `tools/call`, as is: no argument conversion or validation (lib/client's `call` does that). */
  callTool(
    name: string,
    args: Record<string, unknown>,
    options?: ToolCallOptions,
  ): Promise<ToolCallResult>;
  /** Tasks: task-augmented `tools/call`, `tasks/get`, `tasks/result`, `tasks/cancel`. */
  readonly tasks: SessionTasks;
  /** Skills (SEP-2640): `skills/list`, `skills/get`; sent only when asked. */
  readonly skills: SessionSkills;
  /** `resources/read`. */
  readResource(uri: string): Promise<ResourceContents[]>;
  /** `prompts/get`. */
  getPrompt(name: string, args: Record<string, string>): Promise<PromptResult>;
  /** `completion/complete`: values for `argument` of `ref` starting from `value`, given `context`. */
  complete(
    ref: CompletionRef,
    argument: { name: string; value: string },
    context?: Record<string, string>,
  ): Promise<CompletionResult>;
  /**
   * Follows a resource's updates or a list's changes: `onChange` for each
   * one, `onEnd` when the connection ends; close the result to stop.
   */
  follow(
    what: FollowTarget,
    handlers: { onChange: () => void; onEnd: () => void },
  ): Promise<Following>;
  /**
   * Sends any request as it is and returns the server's result as it sent it
   * (for a proxy), but for the reserved `io.modelcontextprotocol/` keys of
   * its `_meta` (they belong to this session's era); a JSON-RPC error of the
   * server is a ProtocolError with its `code`, `data` and `serverMessage`.
   */
  forward(
    method: string,
    params: JsonObject | undefined,
    options?: ForwardOptions,
  ): Promise<JsonObject>;
  /** Sends a notification as it is (for a proxy: `notifications/roots/list_changed`). */
  notify(method: string, params?: JsonObject): Promise<void>;
  /**
   * Keeps the change notifications of `filter` coming to the relay: 2025,
   * `resources/subscribe` and `resources/unsubscribe` for what changed
   * (list changes come unasked); 2026-07-28, one `subscriptions/listen`
   * stream, opened again with each new filter.
   */
  watch(filter: WatchFilter): Promise<void>;
  /** Ends the session and the server's process tree or HTTP session. Idempotent. */
  close(): Promise<void>;
}
