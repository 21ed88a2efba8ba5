/**
 * The flags of one command (or a few alike): `--format`, `--json`, `-n`,
 * `--task`, `--detach`, `--follow`, `put`'s and the profile commands'.
 * Rows of the same shape as flags.ts; defaults come from the layer that
 * owns them (`PUT_DEFAULTS` of lib/client). The module is long because it
 * is a table: one row per flag, no logic.
 *
 * It is over 300 lines because it is a table: one row per flag, no logic.
 *
 * @module
 */

import { PUT_DEFAULTS, SERVE_DEFAULTS, SESSION_DEFAULTS } from "../../client/options.ts";
import { formatMs } from "../../errors.ts";
import { parseDuration } from "../duration.ts";
import { append, asIs, flag, setTrue, text } from "./flag.ts";
import { envName, httpAddress, wholeNumber } from "./values.ts";

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

/** `inspect --format text|json|brief`. */
export const INSPECT_FORMAT = formatFlag(
  ["text", "json", "brief"] as const,
  "text for people, json for programs, brief: one line per tool with nested parameter " +
    "shapes (for agents)",
);

/** `grep`'s own flags. */
export const GREP_FLAGS = [
  flag({
    long: "live",
    key: "live",
    help: "ask the servers (every profile's, when no SOURCE is given) instead of the saved " +
      "snapshots",
    apply: setTrue,
  }),
  flag({
    long: "regex",
    short: "E",
    key: "regex",
    help: "PATTERN is a JavaScript regular expression (default: plain text)",
    apply: setTrue,
  }),
  flag({
    long: "case-sensitive",
    key: "caseSensitive",
    help: "match case (default: ignore it)",
    apply: setTrue,
  }),
] as const;

/** `skills`'s own flags. */
export const SKILLS_FLAGS = [
  flag({
    long: "out",
    value: "dir",
    key: "out",
    help: "write the skill, verified, to DIR/NAME/ (default: print its files as records)",
    apply: text,
    completes: "path",
  }),
  flag({
    long: "force",
    key: "force",
    help: "replace an existing DIR/NAME directory (never a symlink)",
    apply: setTrue,
  }),
] as const;

/** `agent-guide`'s own flags. */
export const AGENT_GUIDE_FLAGS = [
  flag({
    long: "out",
    value: "dir",
    key: "out",
    help: "write it to DIR/jn/SKILL.md (an agent's skills folder, e.g. ~/.claude/skills) " +
      "instead of stdout",
    apply: text,
    completes: "path",
  }),
  flag({
    long: "force",
    key: "force",
    help: "replace an existing DIR/jn directory (never a symlink)",
    apply: setTrue,
  }),
] as const;

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

/** `--save-dir`, `--max-bytes` of cat, head and tail: output an agent can hold. */
export const OUTPUT_BOUNDS = [
  flag({
    long: "save-dir",
    value: "dir",
    key: "saveDir",
    help: "write images, audio and blobs to DIR/sha256-HEX.EXT; records carry the file, " +
      "not base64",
    apply: text,
    completes: "path",
  }),
  flag({
    long: "max-bytes",
    value: "N",
    key: "maxBytes",
    help: 'print at most N bytes of records; a {"type":"truncated",…} record says what was cut',
    apply: wholeNumber(1, Number.MAX_SAFE_INTEGER, "--max-bytes 20000"),
  }),
] as const;

/** The highest `--concurrency`. */
const MAX_CONCURRENCY = 1024;

/** `put`'s own flags. */
export const PUT_FLAGS = [
  flag({
    long: "concurrency",
    short: "c",
    value: "K",
    key: "concurrency",
    help: "calls in flight at once on the one session (output stays in input order); " +
      "to @server, operations run one at a time",
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

/** `serve`'s own flags. */
export const SERVE_FLAGS = [
  flag({
    long: "http",
    value: "[HOST:]PORT",
    key: "http",
    help: "serve Streamable HTTP on HOST:PORT (HOST: 127.0.0.1) instead of stdio",
    apply: httpAddress,
  }),
  flag({
    long: "http-token-env",
    value: "VAR",
    key: "httpTokenEnv",
    help: "the variable holding the bearer token every HTTP request must carry (required off " +
      "loopback)",
    apply: (_current: string | undefined, value: string, name: string) => envName(value, name),
  }),
  flag({
    long: "allow-host",
    value: "name",
    key: "allowedHosts",
    help: "accept this Host name too (DNS-rebinding protection refuses others)",
    apply: append(asIs),
    repeatable: true,
  }),
  flag({
    long: "allow-origin",
    value: "host",
    key: "allowedOrigins",
    help: "accept browser requests from this origin host too",
    apply: append(asIs),
    repeatable: true,
  }),
  flag({
    long: "idle",
    value: "duration",
    key: "idleMs",
    help: "end an HTTP session idle this long, with its servers",
    apply: (_current: number | undefined, value: string, name: string) =>
      parseDuration(value, name),
    default: SERVE_DEFAULTS.idleMs as number,
    shown: formatMs(SERVE_DEFAULTS.idleMs),
  }),
  flag({
    long: "max-sessions",
    value: "N",
    key: "maxSessions",
    help: "HTTP sessions at once, at most (each starts every source's server)",
    apply: wholeNumber(1, 10_000, "--max-sessions 8"),
    default: SERVE_DEFAULTS.maxSessions as number,
  }),
  flag({
    long: "audit",
    value: "file",
    key: "audit",
    help: "append one NDJSON line per tool call (time, source, tool, argument names, outcome)",
    apply: text,
    completes: "path",
  }),
  flag({
    long: "restarts",
    value: "N",
    key: "restarts",
    help: "start a source whose server died again, at most N times (with backoff)",
    apply: wholeNumber(0, 100, "--restarts 5"),
    default: SERVE_DEFAULTS.restarts as number,
  }),
] as const;

/** `session start`'s own flags. */
export const SESSION_START_FLAGS = [
  flag({
    long: "idle",
    value: "duration",
    key: "idleMs",
    help: "end the session after this long without a call (0: only when stopped)",
    apply: (_current: number | undefined, value: string, name: string) =>
      parseDuration(value, name),
    default: SESSION_DEFAULTS.idleMs as number,
    shown: formatMs(SESSION_DEFAULTS.idleMs),
  }),
] as const;

/** `session stop`'s own flags. */
export const SESSION_STOP_FLAGS = [
  flag({
    long: "all",
    key: "all",
    help: "stop every session (and forget those that ended by themselves)",
    apply: setTrue,
  }),
] as const;
