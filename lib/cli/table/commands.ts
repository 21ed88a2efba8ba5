/**
 * Every command jn has, in help order: its words, one line of help, its
 * positional arguments, the flags it takes (rows of flags.ts), the end of
 * its help, and the module that runs it. This table is the one place a
 * command is declared: the parser (lib/cli/parse.ts), `--help` and `jn
 * help` (lib/cli/help.ts), the completion scripts, did-you-mean, the
 * bundle's entry points (scripts/bundle.ts) and the import-graph checks all
 * read it. Adding a command is a row here and a module in commands/. The
 * module is long because it is the table: one row per command, no logic.
 *
 * @module
 */

import { EDITOR_NAMES } from "../../client/options.ts";
import { command, type CommandDef, type GroupDef } from "./command.ts";
import {
  AGENT_GUIDE_FLAGS,
  CREATE_FLAGS,
  DETACH,
  FOLLOW,
  FORMAT,
  formatFlag,
  GREP_FLAGS,
  IMPORT_FLAGS,
  INSPECT_FORMAT,
  JSON_PAYLOAD,
  LINES,
  OUTPUT_BOUNDS,
  PUT_FLAGS,
  SERVE_FLAGS,
  SESSION_START_FLAGS,
  SESSION_STOP_FLAGS,
  SKILLS_FLAGS,
  TASK,
  YES,
} from "./command_flags.ts";
import {
  ARG,
  ARGS,
  ARGUMENT_FLAGS,
  CONNECTION_FLAGS,
  LOGIN_CONNECTION_FLAGS,
  SERVE_CONNECTION_FLAGS,
  SESSION_CONNECTION_FLAGS,
} from "./flags.ts";
import { HOST_FLAGS, HOST_FORCE, HOST_LIST_FORMAT } from "./host_flags.ts";
import { LOGIN_FLAGS } from "./login_flags.ts";

/** The shells `jn completions` writes scripts for. */
export const SHELLS = ["bash", "zsh", "fish"] as const;
/** One of {@linkcode SHELLS}. */
export type Shell = typeof SHELLS[number];

const SOURCE = {
  name: "source",
  help: "mcp+LAUNCHER://… URI or @profile reference; with -- PROGRAM ARGS… at the end, " +
    "?QUERY alone or nothing",
  completes: "source",
  argv: true,
} as const;
const SERVER = { name: "server", help: "@server", completes: "source" } as const;
const REMOTE = {
  name: "server",
  help: "mcp+https://… URI (or https://…) or @profile",
  completes: "source",
} as const;

/** The flags of cat, head and tail: how to call, what to print, the arguments, the connection. */
const CALL_FLAGS = [
  JSON_PAYLOAD,
  TASK,
  DETACH,
  ...OUTPUT_BOUNDS,
  ...ARGUMENT_FLAGS,
  ...CONNECTION_FLAGS,
] as const;

/** `jn inspect SOURCE`. */
export const INSPECT = command({
  path: ["inspect"],
  summary: "tools, resources, resource templates and prompts of a server; with ?tool=NAME, " +
    "that tool's signature, description and schema",
  args: [SOURCE],
  flags: [INSPECT_FORMAT, ...CONNECTION_FLAGS],
  footer: "inspect",
  module: "commands/inspect.ts",
  forwards: true,
});

/** `jn cat SOURCE`. */
export const CAT = command({
  path: ["cat"],
  summary: "call a tool, read a resource, get a prompt or list (?list=) → NDJSON",
  args: [SOURCE],
  flags: [...CALL_FLAGS, FOLLOW],
  footer: "cat",
  module: "commands/cat.ts",
  forwards: true,
});

/** `jn head SOURCE`. */
export const HEAD = command({
  path: ["head"],
  summary: "the first N records of cat (default 10)",
  args: [SOURCE],
  flags: [LINES, ...CALL_FLAGS],
  footer: "head",
  module: "commands/cat.ts",
  forwards: true,
});

/** `jn tail SOURCE`. */
export const TAIL = command({
  path: ["tail"],
  summary: "the last N records of cat (default 10)",
  args: [SOURCE],
  flags: [LINES, ...CALL_FLAGS],
  footer: "tail",
  module: "commands/cat.ts",
  forwards: true,
});

/** `jn complete SOURCE ARGUMENT [PARTIAL]`. */
export const COMPLETE = command({
  path: ["complete"],
  summary: "completions of a prompt's or resource template's argument → NDJSON",
  args: [
    {
      name: "source",
      help: "a source with ?prompt=NAME or ?resource=TEMPLATE (other keys: context)",
      completes: "source",
      argv: true,
    },
    { name: "argument", help: "the argument (or template variable) to complete" },
    { name: "partial", help: "what is typed so far", optional: true },
  ],
  flags: [ARG, ARGS, ...CONNECTION_FLAGS],
  footer: "complete",
  module: "commands/complete.ts",
  forwards: true,
});

/** `jn put TARGET`. */
export const PUT = command({
  path: ["put"],
  summary: "one tool call per NDJSON record on stdin → NDJSON (to @server: the operation " +
    "each names); or stdin's records → FILE.json|.ndjson",
  args: [{
    name: "target",
    help: "mcp+…?tool=NAME or @server/tool; @server (records name their operation); " +
      "or FILE.json, FILE.ndjson, FILE.jsonl",
    completes: "source",
    argv: true,
  }],
  flags: [...PUT_FLAGS, ...ARGUMENT_FLAGS, ...CONNECTION_FLAGS],
  footer: "put",
  module: "commands/put.ts",
  stdin: "the NDJSON records to call with",
  forwards: true,
});

/** `jn filter EXPR`. */
export const FILTER = command({
  path: ["filter"],
  summary: "a jq expression over each NDJSON record on stdin (jq is embedded)",
  args: [{ name: "expr", help: `jq expression, e.g. 'select(.text | contains("Phase 3"))'` }],
  flags: [],
  module: "commands/filter.ts",
  stdin: "the NDJSON records to filter",
});

/** `jn grep PATTERN [SOURCE…]`. */
export const GREP = command({
  path: ["grep"],
  summary: "search tool, prompt and resource names and descriptions: every profile's saved " +
    "snapshot (offline), or servers",
  args: [
    { name: "pattern", help: "text to find (case-insensitive; -E: a regular expression)" },
    {
      name: "source",
      help: "servers to ask (default: every profile, offline)",
      variadic: true,
      optional: true,
      completes: "source",
      argv: true,
    },
  ],
  flags: [...GREP_FLAGS, ...CONNECTION_FLAGS],
  footer: "grep",
  module: "commands/grep.ts",
});

/** `jn skills SOURCE [NAME]`. */
export const SKILLS = command({
  path: ["skills"],
  summary: "a server's skills (SEP-2640): list them, or fetch one, verified",
  args: [
    SOURCE,
    { name: "name", help: "the skill to fetch (its name, path or SKILL.md URI)", optional: true },
  ],
  flags: [...SKILLS_FLAGS, ...CONNECTION_FLAGS],
  footer: "skills",
  module: "commands/skills.ts",
});

/** `jn agent-guide`. */
export const AGENT_GUIDE = command({
  path: ["agent-guide"],
  summary: "a skill (SKILL.md) that teaches an LLM agent jn: how to work, commands, sources, " +
    "records, exit codes",
  args: [],
  flags: AGENT_GUIDE_FLAGS,
  footer: "agentGuide",
  module: "commands/agent_guide.ts",
});

/** `jn serve SOURCE…`. */
export const SERVE = command({
  path: ["serve"],
  summary: "serve profiles or URIs to an MCP host (stdio; --http: Streamable HTTP), curated, " +
    "pinned and sandboxed as jn calls them",
  args: [{
    name: "source",
    help: "profiles (@server) or naked URIs; several are namespaced SOURCE__NAME",
    variadic: true,
    completes: "source",
    argv: true,
  }],
  flags: [...SERVE_FLAGS, ...SERVE_CONNECTION_FLAGS],
  // A call through serve is the host's: jn bounds none of its own (the host cancels).
  defaults: { timeoutMs: { shown: "none: the host cancels" } },
  footer: "serve",
  module: "commands/serve.ts",
});

/** `jn session start SOURCE`. */
export const SESSION_START = command({
  path: ["session", "start"],
  summary: "keep a server alive in the background: every command on SOURCE goes through it " +
    "(its state kept) until it idles out or is stopped",
  args: [{
    name: "source",
    help: "a profile (@server) or naked URI, without an operation; or -- PROGRAM ARGS… at the end",
    completes: "source",
    argv: true,
  }],
  flags: [...SESSION_START_FLAGS, ...SESSION_CONNECTION_FLAGS],
  footer: "session",
  module: "commands/session.ts",
});

/** `jn session list`. */
export const SESSION_LIST = command({
  path: ["session", "list"],
  summary: "the running sessions (and those that ended by themselves)",
  args: [],
  flags: [FORMAT],
  module: "commands/session.ts",
});

/** `jn session stop SOURCE | --all`. */
export const SESSION_STOP = command({
  path: ["session", "stop"],
  summary: "end a session and its server (--all: every session)",
  args: [{
    name: "source",
    help: "the source the session was started with (-- PROGRAM ARGS… too)",
    optional: true,
    completes: "source",
    argv: true,
  }],
  flags: SESSION_STOP_FLAGS,
  module: "commands/session.ts",
});

/** `jn session _run`: the session's own process (started by `session start`). */
export const SESSION_RUN = command({
  path: ["session", "_run"],
  summary: "serve one session (started by jn session start; its request comes on stdin)",
  args: [],
  flags: [],
  module: "commands/session.ts",
  hidden: true,
});

/** The HOST argument of `jn host add|remove`. */
const HOST = {
  name: "host",
  help: `the MCP host: ${EDITOR_NAMES.join(", ")} (claude: Claude Desktop)`,
  choices: EDITOR_NAMES,
} as const;

/** `jn host add HOST @server`. */
export const HOST_ADD = command({
  path: ["host", "add"],
  summary: "write the host's config entry that runs jn serve @server (a backup first)",
  args: [HOST, { name: "server", help: "the profile to serve (@name)", completes: "source" }],
  flags: [...HOST_FLAGS, HOST_FORCE],
  footer: "host",
  module: "commands/host.ts",
});

/** `jn host remove HOST @server`. */
export const HOST_REMOVE = command({
  path: ["host", "remove"],
  summary: "take out the host's entries that run jn serve @server",
  args: [HOST, { name: "server", help: "the profile served (@name)", completes: "source" }],
  flags: HOST_FLAGS,
  module: "commands/host.ts",
});

/** `jn host list`. */
export const HOST_LIST = command({
  path: ["host", "list"],
  summary: "the entries of every host's config that run jn (user and project files)",
  args: [],
  flags: [HOST_LIST_FORMAT],
  module: "commands/host.ts",
});

/** `jn mcp explore SOURCE`. */
export const MCP_EXPLORE = command({
  path: ["mcp", "explore"],
  summary: "everything a server offers, as JSON (= inspect --format json)",
  args: [SOURCE],
  flags: CONNECTION_FLAGS,
  module: "commands/mcp.ts",
  forwards: true,
});

/** `jn mcp tools SOURCE`. */
export const MCP_TOOLS = command({
  path: ["mcp", "tools"],
  summary: "the server's tools as NDJSON records",
  args: [SOURCE],
  flags: CONNECTION_FLAGS,
  module: "commands/mcp.ts",
  forwards: true,
});

/** `jn mcp schema SOURCE TOOL`. */
export const MCP_SCHEMA = command({
  path: ["mcp", "schema"],
  summary: "one tool's inputSchema (and outputSchema) as JSON",
  args: [SOURCE, { name: "tool", help: "the tool's name" }],
  flags: CONNECTION_FLAGS,
  module: "commands/mcp.ts",
  forwards: true,
});

/** `jn mcp hash SOURCE`. */
export const MCP_HASH = command({
  path: ["mcp", "hash"],
  summary: "the schema hash of a server's tools (seed-compatible MD5)",
  args: [SOURCE],
  flags: [
    formatFlag(["text", "json"] as const, "text or json (adds per-tool hashes)"),
    ...CONNECTION_FLAGS,
  ],
  module: "commands/mcp_hash.ts",
  forwards: true,
});

/** `jn mcp demo-server`. */
export const MCP_DEMO_SERVER = command({
  path: ["mcp", "demo-server"],
  summary: "run jn's demo MCP server on stdin/stdout (what @demo launches)",
  args: [],
  flags: [],
  module: "commands/mcp_demo.ts",
});

/** `jn profile list`. */
export const PROFILE_LIST = command({
  path: ["profile", "list"],
  summary: "every profile, with the layer it comes from",
  args: [],
  flags: [FORMAT],
  module: "commands/profile_list.ts",
});

/** `jn profile info @server`. */
export const PROFILE_INFO = command({
  path: ["profile", "info"],
  summary: "the resolved profile (secrets shown as ***) and its tools",
  args: [SERVER],
  flags: [FORMAT],
  module: "commands/profile_info.ts",
});

/** `jn profile create NAME`. */
export const PROFILE_CREATE = command({
  path: ["profile", "create"],
  summary: "save a profile from stdin JSON (the seed's format) or --from a live server",
  args: [{ name: "name", help: "the profile's name (@name)" }],
  flags: [...CREATE_FLAGS, ...CONNECTION_FLAGS],
  module: "commands/profile_create.ts",
  stdin: "the profile document",
});

/** `jn profile trust @server`. */
export const PROFILE_TRUST = command({
  path: ["profile", "trust"],
  summary: "allow a project profile (.jn/profiles/mcp/) to launch: shows what it trusts",
  args: [SERVER],
  flags: [],
  module: "commands/profile_trust.ts",
});

/** `jn profile untrust @server`. */
export const PROFILE_UNTRUST = command({
  path: ["profile", "untrust"],
  summary: "withdraw the trust of a project profile",
  args: [SERVER],
  flags: [],
  module: "commands/profile_trust.ts",
});

/** `jn profile import EDITOR|FILE`. */
export const PROFILE_IMPORT = command({
  path: ["profile", "import"],
  summary: `turn editors' MCP server entries into profiles: ${EDITOR_NAMES.join(", ")} or FILE`,
  args: [{
    name: "source",
    help: `${EDITOR_NAMES.join(", ")}, or a JSON(C) file with mcpServers/servers`,
    completes: "path",
  }],
  flags: IMPORT_FLAGS,
  module: "commands/profile_import.ts",
});

/** `jn profile validate @server`. */
export const PROFILE_VALIDATE = command({
  path: ["profile", "validate"],
  summary: "compare the live server with the profile (exit 3 on breaking changes)",
  args: [SERVER],
  flags: [FORMAT, ...CONNECTION_FLAGS],
  module: "commands/profile_drift.ts",
  forwards: true,
});

/** `jn profile diff @server`. */
export const PROFILE_DIFF = command({
  path: ["profile", "diff"],
  summary: "the changes between the profile and the live server, classified",
  args: [SERVER],
  flags: [FORMAT, ...CONNECTION_FLAGS],
  module: "commands/profile_drift.ts",
  forwards: true,
});

/** `jn profile update @server`. */
export const PROFILE_UPDATE = command({
  path: ["profile", "update"],
  summary: "rewrite the profile to the live schema (keeps comments); asks first",
  args: [SERVER],
  flags: [YES, ...CONNECTION_FLAGS],
  module: "commands/profile_drift.ts",
});

/** `jn auth login SERVER`. */
export const AUTH_LOGIN = command({
  path: ["auth", "login"],
  summary: "sign in to a remote server: browser, pre-registered client, client credentials " +
    "(secret or private_key_jwt), workload identity, or cross-app access",
  args: [REMOTE],
  flags: [...LOGIN_FLAGS, ...LOGIN_CONNECTION_FLAGS],
  module: "commands/auth.ts",
});

/** `jn auth logout SERVER`. */
export const AUTH_LOGOUT = command({
  path: ["auth", "logout"],
  summary: "forget the tokens and client registration of a server",
  args: [REMOTE],
  flags: [],
  module: "commands/auth.ts",
});

/** `jn auth status [SERVER]`. */
export const AUTH_STATUS = command({
  path: ["auth", "status"],
  summary: "sign-in state of one server, or of all: expiry and scopes, never tokens",
  args: [{ ...REMOTE, optional: true }],
  flags: [FORMAT],
  module: "commands/auth.ts",
});

/** `jn completions SHELL`. */
export const COMPLETIONS = command({
  path: ["completions"],
  summary: `print a shell completion script (${SHELLS.join(", ")})`,
  args: [{ name: "shell", help: "the shell", choices: SHELLS }],
  flags: [],
  footer: "completions",
  module: "commands/completions.ts",
});

/** `jn __complete source WORD`: what the completion scripts ask jn at completion time. */
export const COMPLETE_WORD = command({
  path: ["__complete"],
  summary: "complete a word of the command line (used by the completion scripts)",
  args: [
    { name: "kind", help: "what to complete: source" },
    { name: "word", help: "the word typed so far", optional: true },
  ],
  flags: [],
  module: "commands/complete_word.ts",
  hidden: true,
});

/** `jn help [COMMAND…]`, `jn help @profile/tool`. */
export const HELP_COMMAND = command({
  path: ["help"],
  summary: "show help for jn, for a command, or for a tool (@profile/tool, SOURCE?tool=NAME)",
  args: [{
    name: "command",
    help: "a command (cat, mcp schema), or a tool: @profile/tool, SOURCE?tool=NAME",
    variadic: true,
    optional: true,
  }],
  flags: [FORMAT, ...CONNECTION_FLAGS],
  module: "commands/help.ts",
});

/** Every command, in help order. */
export const COMMANDS: readonly CommandDef[] = [
  INSPECT,
  CAT,
  HEAD,
  TAIL,
  COMPLETE,
  PUT,
  FILTER,
  GREP,
  SKILLS,
  AGENT_GUIDE,
  SERVE,
  SESSION_START,
  SESSION_LIST,
  SESSION_STOP,
  SESSION_RUN,
  HOST_ADD,
  HOST_REMOVE,
  HOST_LIST,
  MCP_EXPLORE,
  MCP_TOOLS,
  MCP_SCHEMA,
  MCP_HASH,
  MCP_DEMO_SERVER,
  PROFILE_LIST,
  PROFILE_INFO,
  PROFILE_CREATE,
  PROFILE_TRUST,
  PROFILE_UNTRUST,
  PROFILE_IMPORT,
  PROFILE_VALIDATE,
  PROFILE_DIFF,
  PROFILE_UPDATE,
  AUTH_LOGIN,
  AUTH_LOGOUT,
  AUTH_STATUS,
  COMPLETIONS,
  COMPLETE_WORD,
  HELP_COMMAND,
];

/** The words that group subcommands, with their help line. */
export const GROUPS: readonly GroupDef[] = [
  { path: ["mcp"], summary: "the seed design's discovery commands, and the demo server" },
  { path: ["profile"], summary: "saved servers (@name)" },
  { path: ["host"], summary: "MCP hosts' config entries that run jn serve (Claude, Cursor…)" },
  { path: ["auth"], summary: "OAuth sign-in for remote servers" },
  { path: ["session"], summary: "keep a server alive between commands (its state with it)" },
];

/** jn's own line of help. */
export const PROGRAM_SUMMARY =
  "A command-line client for the Model Context Protocol: inspect and call any MCP server, " +
  "NDJSON out.";
