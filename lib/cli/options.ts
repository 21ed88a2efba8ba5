/**
 * Flags shared by the commands that talk to a server, and their parsing into
 * typed values (phase two of argument parsing: commander gives strings, this
 * gives numbers and unions or throws a UsageError).
 *
 * @module
 */

import type { Command } from "commander";
import { UsageError } from "../errors.ts";
import { LOG_LEVELS, type LogLevel } from "../client/options.ts";
import type { ProtocolMode } from "../session/types.ts";
import { parseDuration } from "./duration.ts";
import { ELICIT_MODES, type ElicitMode } from "./elicit.ts";
import { parseHostList, type SandboxPolicy } from "../sandbox/policy.ts";

/** The raw flag values commander collects for a server command. */
export interface RawCallFlags {
  arg?: string[];
  args?: string;
  allowUnknown?: boolean;
  timeout?: string;
  connectTimeout?: string;
  protocol?: string;
  ignoreSchema?: boolean;
  envPassthrough?: string[];
  progress?: boolean;
  logLevel?: string;
  json?: boolean;
  header?: string[];
  allowHttp?: boolean;
  tokenEnv?: string;
  elicit?: string;
  samplingCommand?: string;
  root?: string[];
  sandbox?: boolean;
  sandboxRead?: string[];
  sandboxWrite?: string[];
  sandboxNet?: boolean;
  sandboxHost?: string[];
}

/** Typed flags of a server command. */
export interface CallFlags {
  arg: string[];
  args?: string;
  /** `--allow-unknown`: send arguments the tool's schema does not declare. */
  allowUnknown: boolean;
  timeoutMs: number;
  connectTimeoutMs: number;
  protocol: ProtocolMode;
  ignoreSchema: boolean;
  envPassthrough: string[];
  progress: boolean;
  logLevel: LogLevel;
  json: boolean;
  /** `--header`: extra HTTP headers for remote servers. */
  headers: Record<string, string>;
  /** `--allow-http`: cleartext HTTP to hosts other than loopback. */
  allowHttp: boolean;
  /** `--token-env`: the variable holding a bearer token. */
  tokenEnv?: string;
  /** `--elicit`: how to answer elicitation requests. */
  elicit: ElicitMode;
  /** `--sampling-command`: a shell command answering sampling requests. */
  samplingCommand?: string;
  /** `--root`: directories exposed as roots (as given). */
  roots: string[];
  /** `--sandbox*`: confine the server; absent when no sandbox flag was given. */
  sandbox?: SandboxPolicy;
}

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** One connection option: flags, description, and a default or a collector. */
type OptionSpec = [flags: string, description: string, extra?: string | typeof collect];

const CONNECTION_OPTIONS: OptionSpec[] = [
  [
    "--timeout <duration>",
    "bound of each request (progress resets it, up to 10x in all); 0 = none",
    "60s",
  ],
  ["--connect-timeout <duration>", "bound of starting the server and the handshake", "60s"],
  ["--protocol <mode>", "protocol era: auto, legacy (2025) or a revision to pin", "auto"],
  ["--env-passthrough <VAR>", "pass a variable of yours to the server (repeatable)", collect],
  ["--progress", "print progress notifications as lines on stderr"],
  ["--log-level <level>", `server log messages shown on stderr: ${LOG_LEVELS.join("|")}`],
  ["--ignore-schema", "skip the profile's schema drift check"],
  ["--header <name: value>", "an HTTP header for a remote server (repeatable)", collect],
  ["--token-env <VAR>", "send the bearer token held in environment variable VAR"],
  ["--allow-http", "allow cleartext http:// to hosts other than loopback"],
  [
    "--elicit <mode>",
    `answer the server's questions: ${ELICIT_MODES.join("|")} (auto: prompt on a terminal)`,
    "auto",
  ],
  [
    "--sampling-command <cmd>",
    "answer the server's LLM sampling requests: sh -c CMD, request JSON on stdin, answer on stdout",
  ],
  ["--root <path>", "expose a directory to the server as a root (repeatable)", collect],
  ["--sandbox", "confine the server: read-only system, your files hidden, no network"],
  ["--sandbox-read <path>", "let the sandboxed server read PATH (repeatable)", collect],
  ["--sandbox-write <path>", "let the sandboxed server write PATH (repeatable)", collect],
  ["--sandbox-net", "let the sandboxed server use the network"],
  ["--sandbox-host <host>", "let a sandboxed Deno server reach HOST only (repeatable)", collect],
];

/**
 * The connection options `jn auth login` uses: it only reaches a remote
 * server's HTTP endpoint and its authorization server (no process, sandbox,
 * tool call, or answers to the server's requests).
 */
export const LOGIN_CONNECTION_OPTIONS: readonly string[] = [
  "--timeout",
  "--connect-timeout",
  "--protocol",
  "--header",
  "--allow-http",
];

/**
 * Adds the connection options (all of them, or those named in `only`, e.g.
 * {@linkcode LOGIN_CONNECTION_OPTIONS}).
 */
export function addConnectionOptions(command: Command, only?: readonly string[]): Command {
  for (const [flags, description, extra] of CONNECTION_OPTIONS) {
    if (only !== undefined && !only.includes(flags.split(" ")[0])) continue;
    if (extra === undefined) command.option(flags, description);
    else if (typeof extra === "string") command.option(flags, description, extra);
    else command.option(flags, description, extra);
  }
  return command;
}

/** Adds the argument flags of commands that call a tool or get a prompt. */
export function addArgumentOptions(command: Command): Command {
  return command
    .option("--arg <key=value>", "an argument for the tool or prompt (repeatable)", collect)
    .option("--args <json>", "arguments as a JSON object")
    .option("--allow-unknown", "send arguments the tool's schema does not declare");
}

/** Turns commander's strings into typed flags. */
export function parseCallFlags(raw: RawCallFlags): CallFlags {
  return {
    arg: raw.arg ?? [],
    args: raw.args,
    allowUnknown: raw.allowUnknown === true,
    timeoutMs: parseDuration(raw.timeout ?? "60s", "--timeout"),
    connectTimeoutMs: parseDuration(raw.connectTimeout ?? "60s", "--connect-timeout"),
    protocol: parseProtocol(raw.protocol ?? "auto"),
    ignoreSchema: raw.ignoreSchema === true,
    envPassthrough: parseEnvNames(raw.envPassthrough ?? []),
    progress: raw.progress === true,
    logLevel: parseLogLevel(raw.logLevel ?? "info"),
    json: raw.json === true,
    headers: parseHeaders(raw.header ?? []),
    allowHttp: raw.allowHttp === true,
    tokenEnv: raw.tokenEnv === undefined
      ? undefined
      : parseEnvNames([raw.tokenEnv], "--token-env")[0],
    elicit: parseElicit(raw.elicit ?? "auto"),
    ...(raw.samplingCommand === undefined
      ? {}
      : { samplingCommand: parseSamplingCommand(raw.samplingCommand) }),
    roots: raw.root ?? [],
    sandbox: parseSandboxFlags(raw),
  };
}

/** The policy of the `--sandbox*` flags; each of them implies `--sandbox`. */
function parseSandboxFlags(raw: RawCallFlags): SandboxPolicy | undefined {
  const given = raw.sandbox || raw.sandboxRead || raw.sandboxWrite || raw.sandboxNet ||
    raw.sandboxHost;
  if (!given) return undefined;
  const hosts = parseHostList((raw.sandboxHost ?? []).join(","));
  return {
    network: raw.sandboxNet === true ? true : hosts.length > 0 ? hosts : false,
    read: raw.sandboxRead ?? [],
    write: raw.sandboxWrite ?? [],
  };
}

function parseHeaders(values: string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const value of values) {
    const colon = value.indexOf(":");
    const name = colon === -1 ? "" : value.slice(0, colon).trim();
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) {
      throw new UsageError(`Invalid --header "${value}": expected "Name: value"`, {
        hint: 'e.g. --header "X-Api-Key: abc123"',
      });
    }
    headers[name] = value.slice(colon + 1).trim();
  }
  return headers;
}

function parseSamplingCommand(text: string): string {
  if (text.trim() === "") {
    throw new UsageError("Invalid --sampling-command: it is empty", {
      hint: `give a shell command, e.g. --sampling-command 'llm -m gpt-4o-mini'`,
    });
  }
  return text;
}

function parseElicit(text: string): ElicitMode {
  const mode = ELICIT_MODES.find((candidate) => candidate === text);
  if (!mode) {
    throw new UsageError(`Invalid --elicit "${text}"`, { hint: `use ${ELICIT_MODES.join(", ")}` });
  }
  return mode;
}

/** The first protocol revision the SDK can pin. */
const FIRST_PINNABLE = "2026-07-28";

function parseProtocol(text: string): ProtocolMode {
  if (text === "auto" || text === "legacy") return text;
  // The SDK pins only modern revisions (2026-07-28 on); a 2025 date would leak
  // its own message as a protocol failure, so it is a usage error here.
  if (/^\d{4}-\d{2}-\d{2}$/.test(text) && text >= FIRST_PINNABLE) return { pin: text };
  const era = /^\d{4}-\d{2}-\d{2}$/.test(text)
    ? `: ${text} is a 2025-era revision and cannot be pinned`
    : "";
  throw new UsageError(`Invalid --protocol "${text}"${era}`, {
    hint: `accepted: auto, legacy (every 2025 revision, negotiated), ` +
      `or a revision from ${FIRST_PINNABLE} on to pin`,
  });
}

function parseEnvNames(names: string[], flag = "--env-passthrough"): string[] {
  for (const name of names) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
      throw new UsageError(`Invalid ${flag} "${name}": not a variable name`, {
        hint: `give the name only, e.g. ${flag} GITHUB_TOKEN`,
      });
    }
  }
  return names;
}

function parseLogLevel(text: string): LogLevel {
  const level = LOG_LEVELS.find((candidate) => candidate === text.toLowerCase());
  if (!level) {
    throw new UsageError(`Invalid --log-level "${text}"`, {
      hint: `use one of ${LOG_LEVELS.join(", ")}`,
    });
  }
  return level;
}
