/**
 * lib/client: the library's verbs and policy: `open` (trust, sandbox,
 * environment, drift check), `inspect`, `call`, `put`, ….
 *
 * The policy that makes jn safe and correct lives here, in one place, for
 * the CLI and for any program that uses jn (the repository's `mod.ts`
 * re-exports this module). `serve` puts the same policy in front of an MCP
 * host: every source it serves is opened by `open`. `open()` resolves a source
 * (a project profile only when trusted), merges the profile's sandbox with
 * the caller's, gives the server a minimal environment, connects, and runs
 * the profile's drift check; `inspect`, `call`, `read`, `getPrompt`, `list`,
 * `cat` and `put` act on the connection with jn's rules (arguments
 * converted and validated against the tool's schema, records lossless,
 * secrets redacted from everything reported). Options are plain data;
 * what happens on the way is reported through `events`.
 *
 * This index is the root of the package (`mod.ts`, `@jn/jn`): the verbs,
 * `Connection`, the options and event types, the errors and the records.
 * The rest of what a program may use has its own documented entry
 * (deno.json `exports`): `@jn/jn/profile` (create, import, trust, update,
 * describe profiles), `@jn/jn/tasks`, `@jn/jn/source` (sources and
 * arguments), `@jn/jn/schema`, `@jn/jn/sandbox`, `@jn/jn/output`
 * (rendering). The CLI imports the modules of this folder directly, so that
 * a command loads only what it uses; the entries are for programs.
 *
 * @module
 */

// The verbs.
export { open } from "./open.ts";
export { Connection } from "./connection.ts";
export {
  type ResolveOptions,
  resolveTarget,
  serverName,
  type Target,
  targetShortName,
} from "./resolve.ts";
export { inspect, type InspectReport, inspectSections } from "./inspect.ts";
export { call, type CallOptions } from "./call.ts";
export {
  type ArgInput,
  cat,
  type CatMode,
  type CatOptions,
  type CatResult,
  prepareCat,
} from "./cat.ts";
export { checkFollow, follow, type FollowOptions } from "./follow.ts";
export { getPrompt, type GetPromptOptions, list, type Listing, liveTools, read } from "./verbs.ts";
export {
  put,
  type PutOperationsOptions,
  type PutOptions,
  type PutRecord,
  type RunStats,
} from "./put.ts";
export { complete, type CompleteOptions } from "./complete.ts";
export { toolHelp } from "./tool_help.ts";
export {
  grep,
  type GrepError,
  type GrepKind,
  type GrepMatch,
  type GrepOptions,
  MATCH_CHARS,
  type Matcher,
  matcher,
} from "./grep.ts";
export {
  type FetchedSkill,
  fetchSkill,
  type FetchSkillOptions,
  listSkills,
  offersSkills,
  type SkillFileRecord,
  type SkillRecord,
} from "./skills.ts";
export { SKILL_LIMITS, SKILLS_EXTENSION } from "./skill_entry.ts";
export {
  type CallRecord,
  type HttpServeOptions,
  offerAll,
  serve,
  SERVE_DEFAULTS,
  type ServeEvents,
  type ServeHandle,
  type ServeOptions,
  type ToolAlias,
  type ToolFilter,
  type ToolOffer,
} from "./serve.ts";
export { type SessionStarted, type SessionStartOptions, startSession } from "./session_start.ts";
export { listSessions, type SessionEntry } from "./session_list.ts";
export {
  type SessionPlace,
  type SessionStopped,
  stopAllSessions,
  stopSession,
} from "./session_stop.ts";
export type { SessionRecord } from "./session_record.ts";
export type { SessionLaunchOptions } from "./session_request.ts";
export { type ConfigScope, EDITOR_NAMES, type EditorName } from "../profile/edit/import_paths.ts";
export type { Argv } from "../profile/edit/host_entry.ts";
export {
  hostAdd,
  type HostAddOptions,
  type HostChange,
  type HostOptions,
  jnCommand,
} from "./hosts.ts";
export {
  type HostEntryRecord,
  hostList,
  type HostListing,
  type HostRemoval,
  hostRemove,
  type HostRemoveOptions,
} from "./host_list.ts";
export {
  curatedOffer,
  type CurateOptions,
  curateTools,
  type Curation,
  type ToolRoute,
  type WithheldTool,
} from "./curate.ts";

// The options and the events.
export {
  type ClientEvents,
  LOG_LEVELS,
  type LogLevel,
  type OpenOptions,
  type PreparedLaunch,
  PUT_DEFAULTS,
  type SandboxInfo,
  SESSION_DEFAULTS,
  type SessionUse,
} from "./options.ts";
export { commandSampler, type CommandSamplerOptions } from "./sampling.ts";
export { answerForm, type ElicitAnswers } from "./elicit_answers.ts";
export { driftWarning, type MessageOptions, outputFormatWarning } from "./messages.ts";

// The errors.
export {
  ArgumentError,
  type ArgumentViolation,
  ConfigError,
  ConnectionError,
  DriftError,
  InterruptedError,
  JnError,
  type JnErrorOptions,
  LaunchError,
  ProtocolError,
  SandboxError,
  type SkillCheck,
  SkillVerificationError,
  TimeoutError,
  UriSyntaxError,
  UsageError,
  WriteError,
} from "../errors.ts";

// The records, and the MCP data they are made of.
export {
  completionRecords,
  type JnRecord,
  promptMessageRecords,
  promptRecords,
  resourceContentRecords,
  resourceRecords,
  resourceTemplateRecords,
  type ToolRecordOptions,
  toolRecords,
  toolResultRecords,
} from "../output/records.ts";
export { type BoundOptions, boundRecords, lineBytes } from "./bound_records.ts";
export { saveBinaries, type SaveTarget } from "./save_binary.ts";
export type * from "../types.ts";

// The types the verbs, the connection and the options above name (their
// functions have their own entries: @jn/jn/source, /profile, /schema, /sandbox, /output).
export type { ArgPairs, ArgValue } from "../args/collect.ts";
export type {
  Launcher,
  ListKind,
  NakedSource,
  Operation,
  ProfileSource,
  RawArg,
  Source,
} from "../uri/source.ts";
export type { HttpLaunch, LaunchSpec, StdioLaunch } from "../launch/spec.ts";
export type { Inventory, InventorySection } from "../output/inventory.ts";
export type { ProfileToolNotes, ToolHelp } from "../output/tool_help.ts";
export type { ChangeCounts, ChangeKind, SchemaChange, Severity } from "../schema/diff.ts";
export type { DriftVerdict, OutputFormatDrift } from "../drift/check.ts";
export type { DriftReport } from "../drift/report.ts";
export type { SandboxPolicy } from "../sandbox/policy.ts";
export type { SandboxLink, SandboxMask, SandboxPlan } from "../sandbox/plan.ts";
export type { DenoPermissions } from "../sandbox/deno_permissions.ts";
export type { CredentialSource, IdpSettings } from "../auth/token_store.ts";
export type {
  Following,
  FollowTarget,
  ForwardOptions,
  LoginSettings,
  ProtocolMode,
  Relay,
  Session,
  SessionSkills,
  SessionTasks,
  SkillsPage,
  ToolCallOptions,
  WatchFilter,
} from "../session/types.ts";
export type {
  LayerName,
  MetaDef,
  Profile,
  ProfileTool,
  SchemaValidation,
  ToolDef,
} from "../profile/types.ts";
