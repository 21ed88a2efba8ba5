/**
 * What the commands of one CLI run share: the process boundary (`Io`), the
 * global flags, how a command's module is loaded, and the outcome the
 * command ended with. A command returns
 * its outcome (a tool that answered `isError`, failed records of `put`, …)
 * and lib/cli/exit_codes.ts turns it into the exit status: no command sets
 * an exit code itself.
 *
 * @module
 */

import type { Io } from "./io.ts";

/** How a command ended, when it did not throw. */
export type Outcome =
  /** Everything it was asked to do was done. */
  | "ok"
  /** The tool answered `isError`. */
  | "tool_error"
  /** Some records failed (`put`, `filter`, a line of `put FILE` that is not JSON). */
  | "failed_records"
  /** `profile validate` found breaking changes. */
  | "breaking_drift"
  /** `grep` found nothing. */
  | "no_match"
  /** `filter`: jq's `halt`/`halt_error` ended the run with this status. */
  | { halt: number };

/** The state of one CLI run. */
export interface Cli {
  /** Standard streams, environment, working directory, TTY facts. */
  readonly io: Io;
  /** `--debug`: stack traces and a protocol log on stderr. */
  debug: boolean;
  /** `--quiet`: no warnings, summaries or progress on stderr. */
  quiet: boolean;
  /** How the command ended (set by {@linkcode action}). */
  outcome: Outcome;
  /** How this jn loads a command's module (a session runs forwarded commands with it). */
  readonly load?: LoadCommand;
}

/** What a command's module exports. */
export interface CommandModule {
  // deno-lint-ignore no-explicit-any
  run(cli: Cli, call: any): Promise<unknown> | unknown;
}

/**
 * Loads a module of lib/cli by its path relative to lib/cli/: a command's
 * (the table's `module`) or one of lib/cli/main.ts's `LOADED`. From source
 * it is imported by a computed URL, so that `deno run` does not analyse
 * every command's graph (the SDK, ajv, jq) at start-up; the bundle gives its
 * own loader (scripts/bundle_entry.ts), whose modules are built apart from
 * the start-up: an error a command or the parser's second phase throws is
 * reported by the report module loaded beside it, which knows its classes.
 */
export type LoadCommand = (module: string) => Promise<CommandModule>;
