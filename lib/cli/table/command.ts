/**
 * The shape of one row of jn's command table (lib/cli/table/commands.ts)
 * and of what the parser hands a command's module: the row itself, its
 * positional arguments by name, and its options, typed from the row's
 * flags (lib/cli/table/flag.ts). A command's module exports
 * `run(cli, call)`; main.ts loads it only when that command runs.
 *
 * @module
 */

import type { AnyFlag, FlagData, ValueCompletion, Values } from "./flag.ts";

/** One positional argument of a command. */
export interface ArgDef {
  /** Its name in help (`source`) and in {@linkcode Invocation.args}. */
  readonly name: string;
  readonly help: string;
  /** May be left out (a variadic one: may take no word). */
  readonly optional?: boolean;
  /** Takes every remaining word (the last argument only); at least one unless optional. */
  readonly variadic?: boolean;
  /** What a shell completes for it. */
  readonly completes?: ValueCompletion;
  /** The values it takes, when they are a fixed set (checked by the parser). */
  readonly choices?: readonly string[];
  /**
   * A SOURCE that may be given as a server's argv after `--` instead
   * (lib/cli/server_argv.ts): any server, not only a profile or a remote one.
   */
  readonly argv?: true;
}

/**
 * One command (`cat`) or subcommand (`profile list`) as data: everything of
 * its row, its flags as {@linkcode FlagData}. The parser's first phase and
 * help read only this, from the compiled tables (compiled.ts).
 */
export interface CommandData {
  /** The words that name it: `["profile", "list"]`. */
  readonly path: readonly string[];
  /** One line of help. */
  readonly summary: string;
  readonly args: readonly ArgDef[];
  /** Its own flags; the global ones (`--debug`, `--quiet`, `--help`) come on top. */
  readonly flags: readonly FlagData[];
  /**
   * Where this command's default for a flag's field differs from the flag's
   * own (`serve` bounds no call by default: the host does): the value (none:
   * the field stays unset) and how help shows it.
   */
  readonly defaults?: Readonly<
    Record<string, { readonly value?: unknown; readonly shown: string }>
  >;
  /** The text that ends its help (query keys, examples, exit codes), by name (footers.ts). */
  readonly footer?: string;
  /** The module that runs it, relative to lib/cli/ (`commands/cat.ts`). */
  readonly module: string;
  /** Left out of help and completion. */
  readonly hidden?: boolean;
  /** What it reads from stdin itself (`NDJSON records`): no flag may read `-` then. */
  readonly stdin?: string;
  /**
   * It runs inside a session of its source (its first argument that
   * completes a source) when that session would serve its calls: the
   * session's process runs it with the caller's argv, directory,
   * environment and streams (command forwarding, lib/cli/forward_serve.ts).
   */
  readonly forwards?: true;
}

/** One row of the command table: its data, and its flags with their `apply`. */
export interface CommandDef extends CommandData {
  readonly flags: readonly AnyFlag[];
}

/** Words that only group subcommands (`profile`, `mcp`, `auth`). */
export interface GroupDef {
  readonly path: readonly string[];
  readonly summary: string;
}

/**
 * The tables the parser and completion read: the real ones
 * (lib/cli/table/tables.ts, rows with `apply`) or their compiled data
 * (compiled.ts).
 */
export interface Tables<C extends CommandData = CommandData> {
  /** Every command, in help order. */
  readonly commands: readonly C[];
  /** The words that group subcommands. */
  readonly groups: readonly GroupDef[];
  /** The flags every command takes (`--debug`, `--quiet`, `--help`). */
  readonly globalFlags: readonly FlagData[];
  /** `-V`, `--version` (jn itself only). */
  readonly versionFlag: FlagData;
}

/** The tables and the help texts no row makes: what help (lib/cli/help.ts) is made from. */
export interface HelpTables<C extends CommandData = CommandData> extends Tables<C> {
  /** jn's own line of help. */
  readonly programSummary: string;
  /** The texts that end a command's help, by the name its row gives. */
  readonly footers: Readonly<Record<string, string>>;
  /** The text that ends `jn --help`. */
  readonly programFooter: string;
}

/** Declares a command, keeping its literal path, arguments and flags for {@linkcode Invocation}. */
export function command<const C extends CommandDef>(def: C): C {
  return def;
}

/** A command's positional arguments by name. */
export type ArgsOf<C extends CommandData> = {
  -readonly [A in C["args"][number] as A["name"]]: A extends { variadic: true } ? string[]
    : A extends { optional: true } ? string | undefined
    : string;
};

/**
 * A row as a command's module receives it: its data; its flags carry no
 * `apply` when the row came from the compiled tables (no flag was given).
 */
export type RowOf<C extends CommandData> = Omit<C, "flags"> & {
  readonly flags: readonly FlagData[];
};

/**
 * What a command's `run` receives: its row, its arguments, its options
 * (defaults filled in) and which option fields the command line set. A
 * union of rows gives a union of invocations, told apart by `command.path`.
 */
export type Invocation<C extends CommandDef = CommandDef> = C extends CommandDef ? {
    readonly command: RowOf<C>;
    readonly args: ArgsOf<C>;
    readonly options: Values<C["flags"]>;
    /** The option fields given on the command line (not defaulted). */
    readonly given: ReadonlySet<string>;
  }
  : never;

export type { CommandModule, LoadCommand } from "../context.ts";
