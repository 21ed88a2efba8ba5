/**
 * What the parser (lib/cli/parse.ts) makes of a command line: the version,
 * a help, or a run — its command's row, its positional words and the flags
 * given with their values as typed, which lib/cli/call.ts applies. Types
 * only: nothing here loads at run time.
 *
 * @module
 */

import type { CommandData } from "./table/command.ts";
import type { FlagData } from "./table/flag.ts";

/** The global flags a run was given. */
export interface Globals {
  debug: boolean;
  quiet: boolean;
}

/** A flag the command line gave, and its value as typed (`""` for a switch). */
export interface GivenFlag {
  readonly flag: FlagData;
  /** How the user spelled it (`--timeout`, `-n`), for messages. */
  readonly spelled: string;
  readonly value: string;
}

/** A command line that runs a command, as read against the tables' data. */
export interface Run {
  kind: "run";
  globals: Globals;
  /** The command's row (its data). */
  command: CommandData;
  /** The positional words, in order. */
  positionals: readonly string[];
  /** The flags given, in order (a repeatable one once per use). */
  flags: readonly GivenFlag[];
  /**
   * A server given as an argv after `--` (`jn inspect -- node s.js`):
   * lib/cli/call.ts puts its URI in the SOURCE's place.
   */
  serverArgv?: readonly string[];
}

/** What a command line asks for. */
export type Parsed =
  | { kind: "version"; globals: Globals }
  /**
   * The help of a command or group (`[]`: jn itself); `bare`: jn was given
   * nothing at all (the help then goes to stderr, and the run is a usage error).
   */
  | { kind: "help"; path: readonly string[]; globals: Globals; bare?: boolean }
  | Run;
