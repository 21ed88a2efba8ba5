/**
 * How to reach a server: a process to start (stdio) or a URL to connect to
 * (http). Launchers and profiles produce this; `lib/session` consumes it.
 *
 * @module
 */

/** A server started as a child process and spoken to over stdin/stdout. */
export interface StdioLaunch {
  /** Spoken to over the child's stdin and stdout. */
  transport: "stdio";
  /** The program; resolved on PATH by the OS, never through a shell. */
  command: string;
  /** Its arguments, exactly as passed to the program. */
  args: string[];
  /**
   * Variables the launch config declares for the child. The child's environment
   * is the safe defaults (see `lib/sandbox/env.ts`) plus these, nothing else.
   */
  env: Record<string, string>;
  /** Names of caller variables deliberately passed through (`--env-passthrough`). */
  envPassthrough?: string[];
  /** Working directory of the child; the caller's when absent. */
  cwd?: string;
  /**
   * Further arguments the program reads from its file descriptor 3, each
   * ended by a NUL byte (bubblewrap's `--args 3`): kept out of the argv,
   * which every user of the machine can read (`ps`, /proc/PID/cmdline).
   */
  pipedArgs?: string[];
  /** A short name for messages and log prefixes, e.g. `npx @scope/pkg`. */
  label: string;
}

/** A remote server reached over Streamable HTTP (falling back to SSE) or SSE only. */
export interface HttpLaunch {
  /** `http`: Streamable HTTP, falling back to SSE; `sse`: legacy SSE only. */
  transport: "http" | "sse";
  /** The server's endpoint. */
  url: string;
  /** Extra request headers (after `${VAR}` substitution). */
  headers: Record<string, string>;
  /** A short name for messages and log prefixes. */
  label: string;
}

/** Everything `openSession()` can connect to. */
export type LaunchSpec = StdioLaunch | HttpLaunch;

/** The argv of a stdio launch as one display string (for messages, never for a shell). */
export function describeArgv(launch: StdioLaunch): string {
  return [launch.command, ...launch.args].map(quoteForDisplay).join(" ");
}

function quoteForDisplay(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}
