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
 * The CLI imports the modules of this folder directly, so that a command
 * loads only what it uses; this index is for programs, which may load it all.
 *
 * @module
 */

export { open } from "./open.ts";
export { Connection } from "./connection.ts";
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
export { type ResolveOptions, resolveTarget, serverName, type Target } from "./resolve.ts";
export { inspect, type InspectReport, inspectSections } from "./inspect.ts";
export { call, type CallOptions } from "./call.ts";
export {
  awaitTask,
  callAsTask,
  serverRunsToolTasks,
  startTask,
  type TaskCallOptions,
  type TaskSupport,
  taskSupport,
  wantsTask,
} from "./task.ts";
export { requireDetachable, resumeSource, taskRecord } from "./detach.ts";
export { getPrompt, type GetPromptOptions, list, type Listing, liveTools, read } from "./verbs.ts";
export {
  curatedOffer,
  type CurateOptions,
  curateTools,
  type Curation,
  type ToolRoute,
  type WithheldTool,
} from "./curate.ts";
export { cat, type CatOptions, type CatResult } from "./cat.ts";
export { complete, completionRef } from "./complete.ts";
export { follow, type FollowOptions, followTarget } from "./follow.ts";
export { commandSampler, type CommandSamplerOptions } from "./sampling.ts";
export { put, type PutOptions, type PutRecord } from "./put.ts";
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
export type { RunStats } from "../put/ordered.ts";
export { compareWithLive, type LiveComparison } from "./profile.ts";
export { driftWarning, type MessageOptions, outputFormatWarning } from "./messages.ts";
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
export { buildToolHelp, savedToolHelp, toolHelp } from "./tool_help.ts";
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
export type { ProfileToolNotes, ToolHelp } from "../output/tool_help.ts";

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
export type * from "../types.ts";
export { formatCaret, parseSource } from "../uri/parse.ts";
export type {
  Launcher,
  ListKind,
  NakedSource,
  Operation,
  ProfileSource,
  RawArg,
  Source,
} from "../uri/source.ts";
export {
  type ArgPairs,
  type ArgSources,
  type ArgValue,
  collectArgs,
  typedArgs,
} from "../args/collect.ts";
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
export type { Inventory, InventorySection } from "../output/inventory.ts";
export { formatBrief, toolSignature } from "../output/brief.ts";
export { formatToolHelp } from "../output/tool_help.ts";
export { type Style, style } from "../output/style.ts";
export { type HashableTool, schemaHash, toolHashes } from "../schema/hash.ts";
export type { ChangeCounts, ChangeKind, SchemaChange, Severity } from "../schema/diff.ts";
export type { DriftVerdict, OutputFormatDrift } from "../drift/check.ts";
export type { DriftReport } from "../drift/report.ts";
export type { HttpLaunch, LaunchSpec, StdioLaunch } from "../launch/spec.ts";
export { parseSandboxPolicy, type SandboxPolicy } from "../sandbox/policy.ts";
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
export { type LoadOptions, loadProfile } from "../profile/resolve.ts";
export { type EntryStatus, listProfiles, type ProfileEntry } from "../profile/listing.ts";
export type { LayerOptions } from "../profile/layers.ts";
export type {
  LayerName,
  MetaDef,
  Profile,
  ProfileTool,
  SchemaValidation,
  ToolDef,
} from "../profile/types.ts";
