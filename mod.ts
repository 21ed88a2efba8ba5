/**
 * jn as a library: parse MCP sources, connect to servers, call tools and turn
 * results into jn's NDJSON records — the same code the `jn` CLI runs.
 *
 * @example Call a tool of a naked-URI server
 * ```ts
 * import { openSession, parseSource, resolveTarget, toolResultRecords } from "./mod.ts";
 *
 * const target = await resolveTarget(parseSource("mcp+npx://@modelcontextprotocol/server-everything"), {
 *   cwd: Deno.cwd(),
 *   env: Deno.env.toObject(),
 * });
 * const session = await openSession(target.launch, {
 *   timeoutMs: 60_000,
 *   connectTimeoutMs: 60_000,
 *   callerEnv: Deno.env.toObject(),
 * });
 * try {
 *   const result = await session.callTool("echo", { message: "hi" });
 *   for (const record of toolResultRecords("echo", result)) console.log(JSON.stringify(record));
 * } finally {
 *   await session.close();
 * }
 * ```
 *
 * @module
 */

/**
 * jn's typed errors; each maps to one exit code of the CLI.
 *
 * @example
 * ```ts
 * import { parseSource, UriSyntaxError } from "./mod.ts";
 * try {
 *   parseSource("mcp+nope://x");
 * } catch (error) {
 *   if (error instanceof UriSyntaxError) console.error(error.message, "at", error.index);
 * }
 * ```
 */
export {
  ArgumentError,
  ConfigError,
  ConnectionError,
  DriftError,
  InterruptedError,
  JnError,
  LaunchError,
  ProtocolError,
  SandboxError,
  TimeoutError,
  UriSyntaxError,
  UsageError,
} from "./lib/errors.ts";

/**
 * Parses a naked URI (`mcp+npx://pkg?tool=x&k=v`) or a profile reference (`@server/tool`).
 *
 * @example
 * ```ts
 * import { parseSource } from "./mod.ts";
 * const source = parseSource("mcp+uvx://biomcp-python/biomcp?command=run&tool=search&gene=BRAF");
 * // source.kind === "naked", source.launcher === "uvx", source.operation = {kind: "tool", name: "search"}
 * ```
 */
export { formatCaret, parseSource } from "./lib/uri/parse.ts";
export type {
  Launcher,
  ListKind,
  NakedSource,
  Operation,
  ProfileSource,
  RawArg,
  Source,
} from "./lib/uri/source.ts";

/**
 * Merges and converts arguments: query/`--arg` strings become the types the
 * tool's inputSchema declares, then everything is validated (ArgumentError).
 *
 * @example
 * ```ts
 * import { collectArgs, prepareArguments } from "./mod.ts";
 * const pairs = collectArgs({ query: [{ key: "limit", value: "5" }] });
 * const args = prepareArguments(pairs, {
 *   tool: "search",
 *   schema: { type: "object", properties: { limit: { type: "integer" } } },
 * }); // { limit: 5 }
 * ```
 */
export { type ArgPairs, collectArgs } from "./lib/args/collect.ts";
export { prepareArguments } from "./lib/args/coerce.ts";

/**
 * Resolves a source into how to reach the server and what to do there.
 *
 * @example
 * ```ts
 * import { parseSource, resolveTarget } from "./mod.ts";
 * const target = await resolveTarget(parseSource("mcp+node://./server.js?tool=x"), {
 *   cwd: Deno.cwd(),
 *   env: {},
 * });
 * // target.launch = {transport: "stdio", command: "node", args: ["/abs/server.js"], …}
 * ```
 */
export { resolveTarget, type Target } from "./lib/client/resolve.ts";
/**
 * Builds the exact argv of a naked URI's launcher (no shell, ever).
 *
 * @example
 * ```ts
 * import { buildLaunch, parseSource } from "./mod.ts";
 * const source = parseSource("mcp+npx://@upstash/context7-mcp@latest");
 * if (source.kind === "naked") buildLaunch(source, { cwd: "/" }); // npx -y @upstash/context7-mcp@latest
 * ```
 */
export { buildLaunch } from "./lib/launch/registry.ts";
export type { HttpLaunch, LaunchSpec, StdioLaunch } from "./lib/launch/spec.ts";

/**
 * Makes a launch ready to start, as the CLI does right before a session: caller variables
 * passed through by name, Deno permissions of a `deno run` server, and the OS sandbox
 * (bubblewrap on Linux, sandbox-exec on macOS). A sandbox that was asked for and cannot be
 * set up throws a SandboxError: the server is never started unconfined.
 *
 * @example
 * ```ts
 * import { openSession, prepareLaunch, resolveTarget, parseSource } from "./mod.ts";
 * const target = await resolveTarget(parseSource("mcp+node://./server.js"), { cwd: Deno.cwd(), env: {} });
 * const launch = await prepareLaunch(target.launch, {
 *   cwd: Deno.cwd(),
 *   callerEnv: Deno.env.toObject(),
 *   sandbox: { network: false, read: [], write: ["./out"] },
 * });
 * const session = await openSession(launch, { timeoutMs: 60_000, connectTimeoutMs: 60_000, callerEnv: Deno.env.toObject() });
 * await session.close();
 * ```
 */
export { prepareLaunch, type PrepareOptions } from "./lib/sandbox/prepare.ts";
export { parseSandboxPolicy, type SandboxPolicy } from "./lib/sandbox/policy.ts";
export { type SandboxFields, sandboxFields } from "./lib/sandbox/profile_fields.ts";
export { type DenoPermissions, parseDenoPermissions } from "./lib/sandbox/deno_permissions.ts";
export { childEnvironment, SAFE_ENV_VARS } from "./lib/sandbox/env.ts";

/**
 * Opens an MCP session (stdio server in its own process group; closing it ends the whole tree).
 *
 * @example
 * ```ts
 * import { openSession } from "./mod.ts";
 * const session = await openSession(
 *   { transport: "stdio", command: "node", args: ["server.js"], env: {}, label: "mine" },
 *   { timeoutMs: 30_000, connectTimeoutMs: 30_000, callerEnv: Deno.env.toObject() },
 * );
 * try {
 *   console.log(await session.listTools());
 * } finally {
 *   await session.close();
 * }
 * ```
 */
export {
  type CallOptions,
  openSession,
  type ProtocolMode,
  type Session,
  type SessionOptions,
} from "./lib/session/session.ts";
export type {
  ContentItem,
  JsonSchema,
  PromptInfo,
  PromptResult,
  ResourceContents,
  ResourceInfo,
  ResourceTemplateInfo,
  ServerIdentity,
  ToolCallResult,
  ToolInfo,
} from "./lib/types.ts";

/**
 * jn's NDJSON records (SPEC §3) from session results.
 *
 * @example
 * ```ts
 * import { toolResultRecords } from "./mod.ts";
 * toolResultRecords("add", { content: [{ type: "text", text: "3" }], structuredContent: { sum: 3 } });
 * // [{type:"tool_result",tool:"add",content_type:"text",text:"3",mimeType:"text/plain"},
 * //  {type:"structured_result",tool:"add",data:{sum:3}}]
 * ```
 */
export {
  type JnRecord,
  promptMessageRecords,
  promptRecords,
  resourceContentRecords,
  resourceRecords,
  resourceTemplateRecords,
  toolRecords,
  toolResultRecords,
} from "./lib/output/records.ts";

/**
 * The seed-compatible schema hash and the classified schema diff (SPEC §5).
 *
 * @example
 * ```ts
 * import { schemaHash } from "./mod.ts";
 * schemaHash([{ name: "search", inputSchema: { type: "object", properties: { q: { type: "string" } } } }]);
 * ```
 */
export { schemaHash, toolHashes } from "./lib/schema/hash.ts";
export { classify, diffSchemas, type SchemaChange } from "./lib/schema/diff.ts";

/**
 * Profiles (SPEC §4): resolve `@name` across the layers (variables
 * substituted, secrets collected), list every layer's profiles, and compare a
 * profile with its live server (SPEC §5).
 *
 * @example
 * ```ts
 * import { driftReport, loadProfile, openSession, profileLaunch } from "./mod.ts";
 * const env = Deno.env.toObject();
 * const profile = await loadProfile("demo", { cwd: Deno.cwd(), env });
 * const session = await openSession(profileLaunch(profile), { timeoutMs: 60_000, connectTimeoutMs: 60_000, callerEnv: env });
 * try {
 *   console.log(driftReport(profile, await session.listTools()).status); // "valid"
 * } finally {
 *   await session.close();
 * }
 * ```
 */
export { loadProfile } from "./lib/profile/resolve.ts";
export { profileLaunch } from "./lib/profile/launch.ts";
export { listProfiles, type ProfileEntry } from "./lib/profile/listing.ts";
export { type DriftReport, driftReport } from "./lib/drift/report.ts";
export type { MetaDef, Profile, ProfileTool, ToolDef } from "./lib/profile/types.ts";

/**
 * The CLI itself: run jn with arguments and an Io, get the exit code.
 *
 * @example
 * ```ts
 * import { denoIo, main } from "./mod.ts";
 * const code = await main(["cat", "mcp+node://./server.js?list=tools"], denoIo());
 * ```
 */
export { main } from "./lib/cli/main.ts";
export { denoIo, type Io } from "./lib/cli/io.ts";
