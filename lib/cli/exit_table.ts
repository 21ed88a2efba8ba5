/**
 * The exit codes of SPEC §6, declared once: each code's name, a word or two
 * for help lines, and its meaning. exit_codes.ts maps errors and outcomes to
 * them; `jn --help` and `jn agent-guide` print them from here. No imports,
 * so help loads nothing else for them.
 *
 * @module
 */

/** One exit code. */
export interface ExitCodeRow {
  code: number;
  /** A word or two (`tool error`), for one-line lists. */
  short: string;
  /** What it means. */
  meaning: string;
}

/** Every exit code jn uses, in order. */
export const EXIT_CODES: readonly ExitCodeRow[] = [
  { code: 0, short: "ok", meaning: "success (also when the reader of stdout goes away)" },
  {
    code: 1,
    short: "tool error",
    meaning: "the tool answered isError; put or filter had failed records; grep found nothing",
  },
  {
    code: 2,
    short: "usage",
    meaning: "bad flags, malformed URI, arguments that fail the tool's schema (nothing was called)",
  },
  {
    code: 3,
    short: "configuration",
    meaning: "profile missing or invalid, unset variable, untrusted project profile, " +
      "breaking drift",
  },
  {
    code: 4,
    short: "launch/connection",
    meaning: "command not found, server exited, timeout, HTTP failure",
  },
  { code: 5, short: "protocol", meaning: "JSON-RPC error from the server, malformed response" },
  {
    code: 6,
    short: "sandbox",
    meaning: "a permission jn or the sandboxed server needs was refused",
  },
  { code: 70, short: "internal", meaning: "a bug in jn (--debug shows the stack)" },
  { code: 130, short: "interrupted", meaning: "Ctrl-C, SIGTERM, SIGHUP, SIGQUIT" },
];

/** Exit codes of SPEC §6, by name. */
export const ExitCode = {
  ok: 0,
  toolError: 1,
  usage: 2,
  config: 3,
  connection: 4,
  protocol: 5,
  sandbox: 6,
  internal: 70,
  interrupted: 130,
} as const satisfies Record<string, (typeof EXIT_CODES)[number]["code"]>;
