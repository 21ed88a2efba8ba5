/**
 * The flags several commands share, each declared once: the global ones,
 * those that say how to reach and launch a server (the fields of the
 * library's `OpenOptions`: `timeoutMs`, `sandbox`, `headers`…) and how the
 * CLI answers it, and a tool's arguments. Each row holds its names, the
 * options field it sets, how its value is checked, its default (imported
 * from the layer that owns it) and its help line. One command's own flags
 * are in command_flags.ts and login_flags.ts; the command table
 * (commands.ts) says which commands take which. The module is long because
 * it is a table: one row per flag, no logic.
 *
 * It is over 300 lines because it is a table: one row per flag, no logic.
 *
 * @module
 */

import { LOG_LEVELS, OPEN_DEFAULTS, parseHostList } from "../../client/options.ts";
import type { SandboxPolicy } from "../../client/options.ts";
import { formatMs } from "../../errors.ts";
import { parseDuration } from "../duration.ts";
import { type AnyFlag, append, asIs, flag, setTrue, text } from "./flag.ts";
import { elicitAnswers, envName, header, nonEmpty, protocol } from "./values.ts";

/** `--elicit`: how the CLI answers a server's questions (auto: prompt on a terminal). */
export const ELICIT_MODES = ["auto", "prompt", "accept-defaults", "decline"] as const;
/** One of {@linkcode ELICIT_MODES}. */
export type ElicitMode = typeof ELICIT_MODES[number];

/** What the sandbox flags start from: the policy of a bare `--sandbox`. */
const sandboxed = (current: SandboxPolicy | undefined): SandboxPolicy =>
  current ?? { network: false, read: [], write: [] };

const duration = (_current: number | undefined, value: string, name: string) =>
  parseDuration(value, name);

// ---- global: before or after the command words, on every command ----

/** `--debug`. */
export const DEBUG = flag({
  long: "debug",
  key: "debug",
  help: "stack traces and a protocol log on stderr",
  apply: setTrue,
});
/** `-q`, `--quiet`. */
export const QUIET = flag({
  long: "quiet",
  short: "q",
  key: "quiet",
  help: "no warnings, progress or summaries on stderr",
  apply: setTrue,
});
/** `-h`, `--help`: the help of the command named so far. */
export const HELP = flag({
  long: "help",
  short: "h",
  key: "help",
  help: "display help for the command",
  apply: setTrue,
});
/** `-V`, `--version` (jn itself only). */
export const VERSION_FLAG = flag({
  long: "version",
  short: "V",
  key: "version",
  help: "print jn's version",
  apply: setTrue,
});

/** The flags every command takes. */
export const GLOBAL_FLAGS: readonly AnyFlag[] = [DEBUG, QUIET, HELP];

// ---- how to reach and launch a server: OpenOptions fields ----

const TIMEOUT = flag({
  long: "timeout",
  value: "duration",
  key: "timeoutMs",
  help: "bound of each request (progress resets it, up to 10x in all); 0 = none",
  apply: duration,
  default: OPEN_DEFAULTS.timeoutMs,
  shown: formatMs(OPEN_DEFAULTS.timeoutMs),
});
const CONNECT_TIMEOUT = flag({
  long: "connect-timeout",
  value: "duration",
  key: "connectTimeoutMs",
  help: "bound of starting the server and the handshake",
  apply: duration,
  default: OPEN_DEFAULTS.connectTimeoutMs,
  shown: formatMs(OPEN_DEFAULTS.connectTimeoutMs),
});
const PROTOCOL = flag({
  long: "protocol",
  value: "mode",
  key: "protocol",
  help: "protocol era: auto, legacy (2025) or a revision to pin",
  apply: protocol,
  default: OPEN_DEFAULTS.protocol,
  shown: OPEN_DEFAULTS.protocol,
});
const ENV_PASSTHROUGH = flag({
  long: "env-passthrough",
  value: "VAR",
  key: "envPassthrough",
  help: "pass a variable of yours to the server",
  apply: append(envName),
  repeatable: true,
});
const LOG_LEVEL = flag({
  long: "log-level",
  value: "level",
  key: "logLevel",
  help: "server log messages shown on stderr",
  apply: (_current: (typeof LOG_LEVELS)[number] | undefined, value: string) =>
    value as (typeof LOG_LEVELS)[number],
  choices: LOG_LEVELS,
  default: OPEN_DEFAULTS.logLevel,
  shown: OPEN_DEFAULTS.logLevel,
});
const IGNORE_SCHEMA = flag({
  long: "ignore-schema",
  key: "ignoreSchema",
  help: "skip the profile's schema drift check",
  apply: setTrue,
});
const HEADER = flag({
  long: "header",
  value: "name: value",
  key: "headers",
  help: "an HTTP header for a remote server",
  apply: header,
  repeatable: true,
});
const TOKEN_ENV = flag({
  long: "token-env",
  value: "VAR",
  key: "tokenEnv",
  help: "send the bearer token held in environment variable VAR",
  apply: (_current: string | undefined, value: string, name: string) => envName(value, name),
});
const ALLOW_HTTP = flag({
  long: "allow-http",
  key: "allowHttp",
  help: "allow cleartext http:// to hosts other than loopback",
  apply: setTrue,
});
const SAMPLING_COMMAND = flag({
  long: "sampling-command",
  value: "cmd",
  key: "samplingCommand",
  help: "answer the server's LLM sampling requests: sh -c CMD, request JSON on stdin, " +
    "answer on stdout",
  apply: nonEmpty("'llm -m gpt-4o-mini'"),
});
const ROOT = flag({
  long: "root",
  value: "path",
  key: "roots",
  help: "expose a directory to the server as a root",
  apply: append(asIs),
  repeatable: true,
  completes: "path",
});
const SANDBOX = flag({
  long: "sandbox",
  key: "sandbox",
  help: "confine the server: read-only system, your files hidden, no network",
  apply: sandboxed,
});
const SANDBOX_READ = flag({
  long: "sandbox-read",
  value: "path",
  key: "sandbox",
  help: "let the sandboxed server read PATH (implies --sandbox)",
  apply: (current: SandboxPolicy | undefined, value: string) => {
    const policy = sandboxed(current);
    return { ...policy, read: [...policy.read, value] };
  },
  repeatable: true,
  completes: "path",
});
const SANDBOX_WRITE = flag({
  long: "sandbox-write",
  value: "path",
  key: "sandbox",
  help: "let the sandboxed server write PATH (implies --sandbox)",
  apply: (current: SandboxPolicy | undefined, value: string) => {
    const policy = sandboxed(current);
    return { ...policy, write: [...policy.write, value] };
  },
  repeatable: true,
  completes: "path",
});
const SANDBOX_NET = flag({
  long: "sandbox-net",
  key: "sandbox",
  help: "let the sandboxed server use the network (implies --sandbox)",
  apply: (current: SandboxPolicy | undefined) => ({ ...sandboxed(current), network: true }),
});
const SANDBOX_HOST = flag({
  long: "sandbox-host",
  value: "host",
  key: "sandbox",
  help: "let a sandboxed Deno server reach HOST only (implies --sandbox)",
  apply: (current: SandboxPolicy | undefined, value: string, name: string) => {
    const policy = sandboxed(current);
    const hosts = parseHostList(value, name);
    const network = policy.network === true
      ? true
      : [...(Array.isArray(policy.network) ? policy.network : []), ...hosts];
    return { ...policy, network };
  },
  repeatable: true,
});

const NO_SESSION = flag({
  long: "no-session",
  key: "noSession",
  help: "start the server for this command even when a session of it runs (jn session)",
  apply: setTrue,
});

// ---- how the CLI shows what a server says and asks ----

const PROGRESS = flag({
  long: "progress",
  key: "progress",
  help: "print progress notifications as lines on stderr",
  apply: setTrue,
});
/** `--elicit`: how the CLI answers the server's questions. */
export const ELICIT = flag({
  long: "elicit",
  value: "mode",
  key: "elicit",
  help: "answer the server's questions (auto: prompt on a terminal)",
  apply: (_current: ElicitMode | undefined, value: string) => value as ElicitMode,
  choices: ELICIT_MODES,
  default: "auto" as ElicitMode,
  shown: "auto",
});

/** `--elicit-answers`: the answers to the server's forms, as data (lib/client/elicit_answers.ts). */
const ELICIT_ANSWERS = flag({
  long: "elicit-answers",
  value: "json|@file|-",
  key: "elicitAnswers",
  help: "answer the server's forms from this JSON object (or one object per question; " +
    "a file with @FILE, stdin with -): checked against each form, declined where it does not fit",
  apply: elicitAnswers,
  input: true,
});

/**
 * The flags of every command that talks to a server: the fields of
 * `OpenOptions` they set, and how the CLI answers and shows the server.
 */
export const CONNECTION_FLAGS = [
  TIMEOUT,
  CONNECT_TIMEOUT,
  PROTOCOL,
  ENV_PASSTHROUGH,
  PROGRESS,
  LOG_LEVEL,
  IGNORE_SCHEMA,
  HEADER,
  TOKEN_ENV,
  ALLOW_HTTP,
  ELICIT,
  ELICIT_ANSWERS,
  SAMPLING_COMMAND,
  ROOT,
  SANDBOX,
  SANDBOX_READ,
  SANDBOX_WRITE,
  SANDBOX_NET,
  SANDBOX_HOST,
  NO_SESSION,
] as const;

/**
 * The connection flags `jn session start` uses: how to reach and launch the
 * server (what the session's calls must match), and whether sampling is
 * offered. Not per-call ones (`--timeout`, `--elicit`, `--progress`): each
 * call through the session gives its own.
 */
export const SESSION_CONNECTION_FLAGS = [
  CONNECT_TIMEOUT,
  PROTOCOL,
  ENV_PASSTHROUGH,
  LOG_LEVEL,
  IGNORE_SCHEMA,
  HEADER,
  TOKEN_ENV,
  ALLOW_HTTP,
  SAMPLING_COMMAND,
  ROOT,
  SANDBOX,
  SANDBOX_READ,
  SANDBOX_WRITE,
  SANDBOX_NET,
  SANDBOX_HOST,
] as const;

/**
 * The connection flags `jn serve` uses: how to reach and launch each source.
 * Not how to answer a server (`--elicit`, `--sampling-command`) nor show its
 * progress: the host answers and shows those.
 */
export const SERVE_CONNECTION_FLAGS = [
  TIMEOUT,
  CONNECT_TIMEOUT,
  PROTOCOL,
  ENV_PASSTHROUGH,
  LOG_LEVEL,
  IGNORE_SCHEMA,
  HEADER,
  TOKEN_ENV,
  ALLOW_HTTP,
  ROOT,
  SANDBOX,
  SANDBOX_READ,
  SANDBOX_WRITE,
  SANDBOX_NET,
  SANDBOX_HOST,
  NO_SESSION,
] as const;

/**
 * The connection flags `jn auth login` uses: it only reaches a remote
 * server's HTTP endpoint and its authorization server (no process, sandbox,
 * tool call, or answers to the server's requests).
 */
export const LOGIN_CONNECTION_FLAGS = [
  TIMEOUT,
  CONNECT_TIMEOUT,
  PROTOCOL,
  HEADER,
  ALLOW_HTTP,
] as const;

// ---- a tool's or prompt's arguments ----

/** `--arg KEY=VALUE`: one argument of the tool or prompt (repeatable). */
export const ARG = flag({
  long: "arg",
  value: "key=value",
  key: "arg",
  help: "an argument for the tool or prompt",
  apply: append(asIs),
  repeatable: true,
});

/** `--args JSON`: the arguments as one JSON object. */
export const ARGS = flag({
  long: "args",
  value: "json|@file|-",
  key: "args",
  help: "arguments as a JSON object: given, in file FILE (@FILE), or on stdin (-)",
  apply: text,
  input: true,
});

/** `--arg`, `--args`, `--allow-unknown`. */
export const ARGUMENT_FLAGS = [
  ARG,
  ARGS,
  flag({
    long: "allow-unknown",
    key: "allowUnknown",
    help: "send arguments the tool's schema does not declare",
    apply: setTrue,
  }),
] as const;
