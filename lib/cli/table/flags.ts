/**
 * Every flag jn has, each declared once: its names, the options field it
 * sets (the library's own field where there is one: `timeoutMs`,
 * `sandbox`, `headers` of `OpenOptions`), how its value is checked, its
 * default (imported from the layer that owns it) and its help line. The
 * command table (commands.ts) says which commands take which flags; the
 * parser, the help and the completion scripts read only these rows.
 *
 * @module
 */

import { LOG_LEVELS, OPEN_DEFAULTS, PUT_DEFAULTS } from "../../client/options.ts";
import type { LoginFlags } from "../../client/auth.ts";
import { parseHostList } from "../../sandbox/hosts.ts";
import type { SandboxPolicy } from "../../sandbox/policy.ts";
import { formatDuration, parseDuration } from "../duration.ts";
import { append, asIs, flag, setTrue, text } from "./flag.ts";
import { envName, header, nonEmpty, protocol, wholeNumber } from "./values.ts";

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
export const GLOBAL_FLAGS = [DEBUG, QUIET, HELP] as const;

// ---- how to reach and launch a server: OpenOptions fields ----

const TIMEOUT = flag({
  long: "timeout",
  value: "duration",
  key: "timeoutMs",
  help: "bound of each request (progress resets it, up to 10x in all); 0 = none",
  apply: duration,
  default: OPEN_DEFAULTS.timeoutMs,
  shown: formatDuration(OPEN_DEFAULTS.timeoutMs),
});
const CONNECT_TIMEOUT = flag({
  long: "connect-timeout",
  value: "duration",
  key: "connectTimeoutMs",
  help: "bound of starting the server and the handshake",
  apply: duration,
  default: OPEN_DEFAULTS.connectTimeoutMs,
  shown: formatDuration(OPEN_DEFAULTS.connectTimeoutMs),
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
  SAMPLING_COMMAND,
  ROOT,
  SANDBOX,
  SANDBOX_READ,
  SANDBOX_WRITE,
  SANDBOX_NET,
  SANDBOX_HOST,
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

/** `--arg`, `--args`, `--allow-unknown`. */
export const ARGUMENT_FLAGS = [
  flag({
    long: "arg",
    value: "key=value",
    key: "arg",
    help: "an argument for the tool or prompt",
    apply: append(asIs),
    repeatable: true,
  }),
  flag({
    long: "args",
    value: "json",
    key: "args",
    help: "arguments as a JSON object",
    apply: text,
  }),
  flag({
    long: "allow-unknown",
    key: "allowUnknown",
    help: "send arguments the tool's schema does not declare",
    apply: setTrue,
  }),
] as const;

// ---- what one command does ----

/** `--format` with the formats a command prints. */
export function formatFlag<const C extends readonly string[]>(choices: C, help?: string) {
  return flag({
    long: "format",
    value: "format",
    key: "format",
    help: help ?? choices.join(" or "),
    apply: (_current: C[number] | undefined, value: string) => value as C[number],
    choices,
    default: choices[0] as C[number],
    shown: choices[0],
  });
}

/** `--format text|json`. */
export const FORMAT = formatFlag(["text", "json"] as const);

/** `--json` of the commands that call tools. */
export const JSON_PAYLOAD = flag({
  long: "json",
  key: "json",
  help: "emit the payload (a tool's structured content or parsed JSON text, a JSON " +
    "resource's value) instead of the envelope",
  apply: setTrue,
});
/** `-n`, `--lines` of head and tail. */
export const LINES = flag({
  long: "lines",
  short: "n",
  value: "N",
  key: "lines",
  help: "how many records",
  apply: wholeNumber(0, Number.MAX_SAFE_INTEGER, "jn head -n 5 SOURCE"),
  default: 10,
});
/** `--task`. */
export const TASK = flag({
  long: "task",
  key: "task",
  help: "call the tool as a task (where it allows one) and wait for it",
  apply: setTrue,
});
/** `--detach`. */
export const DETACH = flag({
  long: "detach",
  key: "detach",
  help: "remote: start the tool as a task, print its record and exit",
  apply: setTrue,
});
/** `--follow` of cat. */
export const FOLLOW = flag({
  long: "follow",
  key: "follow",
  help: "resource: print it again on every update; list: again on every change " +
    "(until Ctrl-C or an explicit --timeout)",
  apply: setTrue,
});

/** The highest `--concurrency`. */
const MAX_CONCURRENCY = 1024;

/** `put`'s own flags. */
export const PUT_FLAGS = [
  flag({
    long: "concurrency",
    short: "c",
    value: "K",
    key: "concurrency",
    help: "calls in flight at once on the one session (output stays in input order)",
    apply: wholeNumber(1, MAX_CONCURRENCY, "--concurrency 16"),
    default: PUT_DEFAULTS.concurrency as number,
  }),
  flag({
    long: "fail-fast",
    key: "failFast",
    help: "stop reading at the first failed record (exit 1)",
    apply: setTrue,
  }),
  flag({
    long: "max-timeouts",
    value: "N",
    key: "maxTimeouts",
    help: "stop calling after N calls in a row timed out; the rest are not_attempted " +
      "(0: never)",
    apply: wholeNumber(0, 1_000_000, "--max-timeouts 10"),
    default: PUT_DEFAULTS.maxTimeouts as number,
  }),
  JSON_PAYLOAD,
] as const;

/** `--force` of the commands that write profiles. */
export const FORCE = flag({
  long: "force",
  key: "force",
  help: "replace an existing profile of the same name",
  apply: setTrue,
});

/** `profile create`'s own flags. */
export const CREATE_FLAGS = [
  flag({
    long: "from",
    value: "source",
    key: "from",
    help: "discover it from a server: mcp+…:// URI or @profile",
    apply: text,
    completes: "source",
  }),
  flag({
    long: "project",
    key: "project",
    help: "write .jn/profiles/mcp/NAME in this directory (default: your user profiles)",
    apply: setTrue,
  }),
  FORCE,
] as const;

/** `profile import`'s own flags. */
export const IMPORT_FLAGS = [
  flag({
    long: "project",
    key: "project",
    help: "also import project-scoped entries (.mcp.json, .cursor/, .vscode/, .zed/) into " +
      ".jn/profiles/mcp/ (untrusted); FILE: import it there",
    apply: setTrue,
  }),
  FORCE,
  flag({
    long: "dry-run",
    key: "dryRun",
    help: "print the profiles as JSON, write nothing",
    apply: setTrue,
  }),
] as const;

/** `-y`, `--yes` of `profile update`. */
export const YES = flag({
  long: "yes",
  short: "y",
  key: "yes",
  help: "do not ask (for scripts)",
  apply: setTrue,
});

/** A value flag of `auth login`, kept as typed in a `LoginFlags` field. */
function login<const K extends keyof LoginFlags>(long: string, value: string, key: K, help: string) {
  return flag({ long, value, key, help, apply: text });
}

/** `auth login`'s own flags: the fields of the library's `LoginFlags`. */
export const LOGIN_FLAGS = [
  login("scope", "scopes", "scope", "the scopes to ask for (space-separated)"),
  login(
    "client-id",
    "id",
    "clientId",
    "a pre-registered OAuth client (skips dynamic registration)",
  ),
  login("client-secret", "secret", "clientSecret", "its secret (prefer --client-secret-env)"),
  login(
    "client-secret-env",
    "VAR",
    "clientSecretEnv",
    "read the client secret from environment variable VAR",
  ),
  flag({
    long: "client-credentials",
    key: "clientCredentials",
    help: "machine-to-machine: the client-credentials grant, no browser",
    apply: setTrue,
  }),
  login(
    "client-metadata-url",
    "url",
    "clientMetadataUrl",
    "an HTTPS client ID metadata document to use as client_id",
  ),
  login(
    "private-key",
    "file",
    "privateKey",
    "client credentials with private_key_jwt: a PKCS#8 PEM key",
  ),
  login(
    "private-key-env",
    "VAR",
    "privateKeyEnv",
    "the same key, read from environment variable VAR",
  ),
  login(
    "signing-alg",
    "alg",
    "signingAlg",
    "the key's JWS algorithm (default: ES256/384/512 or RS256)",
  ),
  login(
    "assertion",
    "file",
    "assertion",
    "workload identity: a JWT for the JWT-bearer grant",
  ),
  login("assertion-env", "VAR", "assertionEnv", "the same JWT, read from environment variable VAR"),
  login("idp", "url", "idp", "cross-app access: the enterprise IdP (issuer URL)"),
  login(
    "idp-token-endpoint",
    "url",
    "idpTokenEndpoint",
    "cross-app access: the IdP's token endpoint",
  ),
  login("idp-client-id", "id", "idpClientId", "cross-app access: jn's client at the IdP"),
  login(
    "idp-client-secret-env",
    "VAR",
    "idpClientSecretEnv",
    "its secret, from environment variable VAR",
  ),
  login("id-token", "file", "idToken", "cross-app access: the user's ID token from the IdP"),
  login("id-token-env", "VAR", "idTokenEnv", "the same ID token, from environment variable VAR"),
  flag({
    long: "dpop",
    key: "dpop",
    help: "ask for DPoP-bound tokens (RFC 9449), kept with a key jn makes",
    apply: setTrue,
  }),
] as const;
