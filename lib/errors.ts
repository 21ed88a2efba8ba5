/**
 * The typed errors of jn's library. They carry structured fields and never an
 * exit code: `lib/cli/main.ts` maps each class to the exit code of SPEC §6 in
 * exactly one place.
 *
 * Also reads Deno's refusals of jn's own permissions back
 * ({@linkcode describeRefusal}: the exact flag, with its value, that would
 * have allowed the access), so that a refusal is one line saying what to add.
 *
 * It is over 300 lines because every typed error a caller can catch is
 * declared here, in one module, so that the one map to exit codes sees them
 * all; each is a few lines of fields.
 *
 * @module
 */

/** Options shared by every jn error. */
export interface JnErrorOptions {
  /** What the user can do about it, printed as `hint: …`. */
  hint?: string;
  /** The underlying error, shown by `--debug`. */
  cause?: unknown;
}

/** Base class: a failure jn can explain in one line. */
export class JnError extends Error {
  /** What the user can do about it. */
  hint?: string;
  /** An error with its one-line message and, in `options`, a hint and a cause. */
  constructor(message: string, options: JnErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.hint = options.hint;
  }
}

/** Bad flags, a bad command line, or arguments that fail a tool's schema (exit 2). */
export class UsageError extends JnError {}

/** A malformed source URI; `index` points at the offending character (exit 2). */
export class UriSyntaxError extends UsageError {
  /** The URI as given. */
  input: string;
  /** Offset of the bad spot in `input`. */
  index: number;
  /** `input` is the URI as given, `index` the offset of the bad spot. */
  constructor(input: string, index: number, message: string, options: JnErrorOptions = {}) {
    super(message, options);
    this.input = input;
    this.index = index;
  }
}

/** One argument that failed the tool's input schema. */
export interface ArgumentViolation {
  /** JSON-pointer-ish path of the argument, e.g. `count` or `filters/limit`. */
  path: string;
  /** What is wrong, e.g. `must be integer`. */
  message: string;
  /** The value as given, when there was one. */
  value?: unknown;
  /** Set when the argument is one the schema does not declare (lib/args/declared.ts). */
  unknown?: true;
}

/** Arguments that fail the tool's `inputSchema`; the server was not called (exit 2). */
export class ArgumentError extends UsageError {
  /** The tool whose schema was violated. */
  tool: string;
  /** Every violation, in schema order. */
  violations: ArgumentViolation[];
  /** The message lists every violation of `tool`'s schema. */
  constructor(tool: string, violations: ArgumentViolation[], options: JnErrorOptions = {}) {
    const list = violations.map(describeViolation).join("; ");
    const [first] = violations;
    super(
      violations.length === 1 && first.unknown
        ? `Unknown argument "${first.path}" for tool "${tool}": ${
          first.message.replace(/^is unknown: /, "")
        }`
        : `Invalid arguments for tool "${tool}": ${list}`,
      options,
    );
    this.tool = tool;
    this.violations = violations;
  }
}

/** `limit must be integer (got "many")`: one violation as a phrase. */
export function describeViolation(violation: ArgumentViolation): string {
  const what = violation.path ? `${violation.path} ${violation.message}` : violation.message;
  if (violation.value === undefined) return what;
  const shown = JSON.stringify(violation.value) ?? String(violation.value);
  return `${what} (got ${shown.length > 40 ? `${shown.slice(0, 40)}…` : shown})`;
}

/** A profile is missing or invalid, a variable is unset, trust is missing (exit 3). */
export class ConfigError extends JnError {
  /** The file at fault, when there is one. */
  path?: string;
  /**
   * Every problem of a document checked as a whole (`jn profile create`),
   * one line each, `$.JSON.PATH: what is wrong`; the message lists them too.
   */
  problems?: string[];
  /** `options.path`: the file at fault; `options.problems`: each problem of a document. */
  constructor(
    message: string,
    options: JnErrorOptions & { path?: string; problems?: string[] } = {},
  ) {
    super(message, options);
    this.path = options.path;
    this.problems = options.problems;
  }
}

/** Breaking schema drift under `schema_validation: error` (exit 3). */
export class DriftError extends ConfigError {}

/** The server could not be started or died (exit 4). */
export class LaunchError extends JnError {
  /** The command line that was started, for the message. */
  command?: string;
  /** Last lines the server wrote to stderr. */
  stderrTail?: string;
  /** `options.command`: what was started; `options.stderrTail`: its last lines on stderr. */
  constructor(
    message: string,
    options: JnErrorOptions & { command?: string; stderrTail?: string } = {},
  ) {
    super(message, options);
    this.command = options.command;
    this.stderrTail = options.stderrTail;
  }
}

/** A transport-level failure: connection refused, HTTP error, closed stream (exit 4). */
export class ConnectionError extends JnError {
  /** Last lines the server wrote to stderr, for stdio servers. */
  stderrTail?: string;
  /** `options.stderrTail`: the last lines the server wrote to stderr. */
  constructor(message: string, options: JnErrorOptions & { stderrTail?: string } = {}) {
    super(message, options);
    this.stderrTail = options.stderrTail;
  }
}

/** A request took longer than its bound (exit 4). */
export class TimeoutError extends ConnectionError {
  /** The request that timed out, e.g. `tools/call "search"`. */
  request: string;
  /** The bound, in milliseconds. */
  timeoutMs: number;
  /** `request` names what timed out, `timeoutMs` is the bound. */
  constructor(request: string, timeoutMs: number, options: JnErrorOptions = {}) {
    super(`Timed out after ${formatMs(timeoutMs)} waiting for ${request}`, {
      hint: options.hint ?? "raise the bound with --timeout (e.g. --timeout 5m)",
      cause: options.cause,
    });
    this.request = request;
    this.timeoutMs = timeoutMs;
  }
}

/** The server answered with a JSON-RPC error or a malformed message (exit 5). */
export class ProtocolError extends JnError {
  /** The JSON-RPC error code, when there was one. */
  code?: number;
  /** The JSON-RPC error data, when there was one. */
  data?: unknown;
  /** The JSON-RPC error's message as the server wrote it (`message` is jn's sentence around it). */
  serverMessage?: string;
  /** `options.code`, `options.data`, `options.serverMessage`: the JSON-RPC error's, when there was one. */
  constructor(
    message: string,
    options: JnErrorOptions & { code?: number; data?: unknown; serverMessage?: string } = {},
  ) {
    super(message, options);
    this.code = options.code;
    this.data = options.data;
    this.serverMessage = options.serverMessage;
  }
}

/** What a skill failed (SEP-2640): the check that refused what the server sent. */
export type SkillCheck =
  | "entry"
  | "path"
  | "limit"
  | "dynamic"
  | "size"
  | "digest"
  | "frontmatter"
  | "content";

/**
 * A skill's entry or one of its files is not what the server's listing
 * promised (SEP-2640 verification), or cannot be written safely: nothing of
 * it was used or written (exit 5).
 */
export class SkillVerificationError extends ProtocolError {
  /** The skill's URI (its SKILL.md). */
  skill: string;
  /** The file at fault (its URI), or the skill's URI for a fault of the entry. */
  file: string;
  /** Which check failed. */
  check: SkillCheck;
  /** `skill` and `file` are URIs; `check` names what failed. */
  constructor(
    message: string,
    fields: { skill: string; file: string; check: SkillCheck },
    options: JnErrorOptions = {},
  ) {
    super(message, options);
    this.skill = fields.skill;
    this.file = fields.file;
    this.check = fields.check;
  }
}

/** A permission jn or the sandboxed server needs was refused (exit 6). */
export class SandboxError extends JnError {}

/**
 * jn could not write a file or stream for a reason outside jn: a full disk,
 * a quota, a read-only file system, a name too long, a permission. `target`
 * says whose it was: the `output` the user asked for (stdout, `put FILE`;
 * exit 2, as jq does) or jn's own `state` (profiles, tokens, trust records;
 * exit 3). A name too long is always the user's (exit 2).
 */
export class WriteError extends JnError {
  /** The file, or undefined for stdout. */
  path?: string;
  /** The OS error code, e.g. `ENOSPC`. */
  code?: string;
  /** Whose file it was. */
  target: "output" | "state";
  /** `options.target`: whose file it was; `code`: the OS error code; `path`: the file. */
  constructor(
    message: string,
    options: JnErrorOptions & { path?: string; code?: string; target: "output" | "state" },
  ) {
    super(message, { hint: options.hint ?? osErrorHint(options.code), cause: options.cause });
    this.path = options.path;
    this.code = options.code;
    this.target = options.target;
  }
}

/** The OS error codes that say the environment refused an operation, not that jn has a bug. */
const OS_CODES = new Set([
  "ENOSPC",
  "EDQUOT",
  "EFBIG",
  "EROFS",
  "EIO",
  "ENAMETOOLONG",
  "EACCES",
  "EPERM",
  "ENOTDIR",
  "EISDIR",
  "ELOOP",
  "ETXTBSY",
  "EMLINK",
]);

/** The code of an OS error of the environment (`ENOSPC`, …), or undefined. */
export function environmentErrorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown })?.code;
  return error instanceof Error && !(error instanceof JnError) && typeof code === "string" &&
      OS_CODES.has(code)
    ? code
    : undefined;
}

/** `no space left on device` from Deno's `No space left on device (os error 28): mkdir '/x'`. */
export function osErrorReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const reason = message.replace(/ \(os error \d+\)[\s\S]*$/, "");
  return reason.charAt(0).toLowerCase() + reason.slice(1);
}

/**
 * A raw OS error from one of jn's own file operations (profiles, tokens,
 * trust records) as a {@linkcode WriteError}, naming the path Deno put in
 * the message; undefined for any other error.
 */
export function stateWriteError(error: unknown): WriteError | undefined {
  const code = environmentErrorCode(error);
  if (code === undefined) return undefined;
  const message = (error as Error).message;
  const path = /: \w+ '([^']*)'/.exec(message)?.[1];
  const what = path === undefined ? "" : ` "${path}"`;
  return new WriteError(`Cannot write${what}: ${osErrorReason(error)}`, {
    path,
    code,
    target: "state",
    cause: error,
  });
}

/** What to do about an OS error code. */
export function osErrorHint(code: string | undefined): string | undefined {
  switch (code) {
    case "ENOSPC":
    case "EDQUOT":
    case "EFBIG":
      return "free some space (or raise the quota) on that file system, or write elsewhere";
    case "EROFS":
      return "that file system is read-only: write elsewhere";
    case "EIO":
      return "the device reported an I/O error: check it, or write elsewhere";
    case "ENAMETOOLONG":
      return "use a shorter name (most file systems allow 255 bytes per name)";
    case "EACCES":
    case "EPERM":
      return "check the permissions of that path (ls -ld)";
    case "ENOTDIR":
    case "EISDIR":
    case "ELOOP":
    case "ETXTBSY":
    case "EMLINK":
      return "check the path";
    default:
      return undefined;
  }
}

/** The user pressed Ctrl-C, or jn received SIGTERM, SIGHUP or SIGQUIT (exit 130). */
export class InterruptedError extends JnError {
  /** The signal that interrupted the run. */
  signal: "SIGINT" | "SIGTERM" | "SIGHUP" | "SIGQUIT";
  /** The signal that interrupted the run. */
  constructor(signal: "SIGINT" | "SIGTERM" | "SIGHUP" | "SIGQUIT" = "SIGINT") {
    super(`Interrupted by ${signal}`);
    this.signal = signal;
  }
}

/** Formats milliseconds the way `--timeout` accepts them (`60s`, `1500ms`, `2m`). */
export function formatMs(ms: number): string {
  if (ms % 60_000 === 0 && ms >= 60_000) return `${ms / 60_000}m`;
  if (ms % 1000 === 0) return `${ms / 1000}s`;
  return `${ms}ms`;
}

/** A permission Deno refused, read from its error message. */
export interface Refusal {
  /** The permission, e.g. `run`. */
  name: string;
  /** What was asked for, e.g. `uvx`, `/etc/hosts`, `example.com:443`; absent for "all of it". */
  value?: string;
  /** The flag that allows exactly this access, e.g. `--allow-run=uvx`. */
  flag: string;
}

/** Whether `error` is Deno refusing a permission (`NotCapable` or `PermissionDenied`). */
export function isPermissionRefusal(error: unknown): error is Error {
  return error instanceof Deno.errors.NotCapable ||
    (error instanceof Deno.errors.PermissionDenied &&
      /Requires \w+ access/.test(error.message));
}

/**
 * The refusal described by a Deno permission error, or `undefined` when the
 * message has another shape.
 *
 * @example
 * ```ts
 * describeRefusal(new Error('Requires run access to "uvx", run again with the --allow-run flag'));
 * // { name: "run", value: "uvx", flag: "--allow-run=uvx" }
 * ```
 */
export function describeRefusal(error: Error): Refusal | undefined {
  const match = /Requires (\w+) access(?: to "([^"]*)")?/.exec(error.message);
  if (!match) return undefined;
  const [, name, value] = match;
  // A value with a comma cannot be written in a flag list; name the whole permission then.
  const flag = value === undefined || value.includes(",")
    ? `--allow-${name}`
    : `--allow-${name}=${value}`;
  return value === undefined ? { name, flag } : { name, value, flag };
}

/** The one-line message of a refused permission, e.g. `No run access to "uvx": …`. */
export function refusalMessage(error: Error): string {
  const refusal = describeRefusal(error);
  if (!refusal) return error.message;
  const what = refusal.value === undefined
    ? `${refusal.name} access`
    : `${refusal.name} access to "${refusal.value}"`;
  return `Permission refused: ${what} needs ${refusal.flag} (jn was started without it)`;
}
