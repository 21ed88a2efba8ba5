/**
 * The one parser of jn's command line: argv → the command it runs, its
 * arguments and its typed options, read from the command and flag tables
 * (lib/cli/table/) and nothing else. Every path goes through it: calls,
 * help, completion scripts, the demo server. A command line it cannot read
 * is a UsageError naming what was wrong, with the closest command, option
 * or value as the hint; nothing has run by then.
 *
 * Grammar: global flags (`--debug`, `-q`, `--help`) anywhere before `--`;
 * the command's words (`profile list`); then its flags and positional
 * arguments in any order. `--name value`, `--name=value`, `-n value`,
 * `-nvalue`, grouped switches (`-qy`); `--` ends the flags (and, where a
 * command takes a SOURCE, starts the server's argv); a lone `-` is
 * an argument. A value flag takes the next word whatever it looks like;
 * a flag given twice keeps the last value, unless it is repeatable; an
 * input flag's `@FILE` or `-` is read after parsing (flag_inputs.ts).
 *
 * @module
 */

import { UsageError } from "../errors.ts";
import { closest } from "../text/suggest.ts";
import {
  badChoice,
  missingSubcommand,
  missingValue,
  unknownCommand,
  unknownOption,
} from "./parse_errors.ts";
import type { CommandDef, GroupDef, Invocation } from "./table/command.ts";
import { COMMANDS, GROUPS } from "./table/commands.ts";
import { type AnyFlag, PendingInput } from "./table/flag.ts";
import { GLOBAL_FLAGS, VERSION_FLAG } from "./table/flags.ts";
import { sourceArgument, withServerArgv } from "./server_argv.ts";

/** The global flags a run was given. */
export interface Globals {
  debug: boolean;
  quiet: boolean;
}

/** What a command line asks for. */
export type Parsed =
  | { kind: "version"; globals: Globals }
  /**
   * The help of a command or group (`[]`: jn itself); `bare`: jn was given
   * nothing at all (the help then goes to stderr, and the run is a usage error).
   */
  | { kind: "help"; path: readonly string[]; globals: Globals; bare?: boolean }
  | { kind: "run"; call: Invocation; globals: Globals };

/** The tables a parse reads (tests give their own, with throwaway rows). */
export interface Tables {
  commands: readonly CommandDef[];
  groups: readonly GroupDef[];
}

const DEFAULT_TABLES: Tables = { commands: COMMANDS, groups: GROUPS };

/** Parses `argv` (without the program name); throws a UsageError. */
export function parseArgs(argv: readonly string[], tables: Tables = DEFAULT_TABLES): Parsed {
  const globals: Globals = { debug: false, quiet: false };
  let help = false;
  let version = false;
  const rest: string[] = [];
  // Pass 1: the global flags, wherever they are (before `--`).
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--") {
      rest.push(...argv.slice(i));
      break;
    }
    if (arg === "--debug") globals.debug = true;
    else if (arg === "-q" || arg === "--quiet") globals.quiet = true;
    else if (arg === "-h" || arg === "--help") help = true;
    else if ((arg === "-V" || arg === "--version") && rest.length === 0) version = true;
    else rest.push(arg);
  }
  // Pass 2: the command's words.
  const path: string[] = [];
  let i = 0;
  for (; i < rest.length; i++) {
    const word = rest[i];
    if (word.startsWith("-")) break;
    const next = [...path, word];
    if (!isPrefix(tables, next)) {
      if (path.length === 0 || groupAt(tables, path)) {
        throw unknownCommand(visibleNext(tables, path), path, word);
      }
      break;
    }
    path.push(word);
    if (commandAt(tables, path)) {
      i++;
      break;
    }
  }
  const command = commandAt(tables, path);
  if (command === undefined) {
    if (path.length === 0) {
      if (version) return { kind: "version", globals };
      const first = rest[0];
      if (help) return { kind: "help", path: [], globals };
      if (first === undefined) return { kind: "help", path: [], globals, bare: true };
      throw unknownOption(first, [...GLOBAL_FLAGS, VERSION_FLAG], "jn");
    }
    if (help) return { kind: "help", path, globals };
    throw missingSubcommand(visibleNext(tables, path), path);
  }
  if (help) return { kind: "help", path: command.path, globals };
  if (version) throw unknownOption("--version", command.flags, commandName(command));
  const call = parseCommand(command, rest.slice(i));
  return { kind: "run", call, globals };
}

/** The flags and arguments after a command's words. */
function parseCommand(command: CommandDef, words: readonly string[]): Invocation {
  const options: Record<string, unknown> = {};
  const given = new Set<string>();
  const positionals: string[] = [];
  let serverArgv: string[] | undefined;
  const name = commandName(command);
  const set = (flag: AnyFlag, spelled: string, value: string) => {
    if (flag.choices && !flag.choices.includes(value)) {
      throw badChoice(flag.choices, spelled, value);
    }
    options[flag.key] = flag.input && (value === "-" || value.startsWith("@"))
      ? new PendingInput(value, flag, spelled)
      : flag.apply(options[flag.key], value, spelled);
    given.add(flag.key);
  };
  for (let i = 0; i < words.length; i++) {
    const word = words[i];
    if (word === "--") {
      // A command that takes a SOURCE takes the server's argv there (server_argv.ts).
      if (sourceArgument(command) === -1) positionals.push(...words.slice(i + 1));
      else serverArgv = words.slice(i + 1);
      break;
    }
    if (word === "-" || !word.startsWith("-")) {
      positionals.push(word);
      continue;
    }
    if (word.startsWith("--")) {
      const eq = word.indexOf("=");
      const spelled = eq === -1 ? word : word.slice(0, eq);
      const flag = command.flags.find((f) => `--${f.long}` === spelled);
      if (flag === undefined) throw unknownOption(spelled, command.flags, name);
      if (flag.value === undefined) {
        if (eq !== -1) {
          throw new UsageError(`Option ${spelled} takes no value`, {
            hint: `give it alone: ${spelled} (see 'jn help ${name}')`,
          });
        }
        set(flag, spelled, "");
      } else if (eq !== -1) set(flag, spelled, word.slice(eq + 1));
      else if (i + 1 < words.length) set(flag, spelled, words[++i]);
      else throw missingValue(flag, spelled, name);
      continue;
    }
    // One or more short flags: -n 5, -n5, -qy.
    for (let j = 1; j < word.length; j++) {
      const spelled = `-${word[j]}`;
      const flag = command.flags.find((f) => f.short === word[j]);
      if (flag === undefined) throw unknownOption(spelled, command.flags, name);
      if (flag.value === undefined) {
        set(flag, spelled, "");
        continue;
      }
      if (j + 1 < word.length) set(flag, spelled, word.slice(j + 1));
      else if (i + 1 < words.length) set(flag, spelled, words[++i]);
      else throw missingValue(flag, spelled, name);
      break;
    }
  }
  for (const flag of command.flags) {
    if (flag.key in options) continue;
    const own = command.defaults?.[flag.key];
    const value = own ? own.value : flag.default;
    if (value !== undefined) options[flag.key] = value;
  }
  const args = bindArguments(
    command,
    serverArgv === undefined ? positionals : withServerArgv(command, positionals, serverArgv),
  );
  return { command, args, options, given } as Invocation;
}

/** Positional words → the command's arguments by name. */
function bindArguments(command: CommandDef, words: readonly string[]): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  const name = commandName(command);
  let i = 0;
  for (const arg of command.args) {
    if (arg.variadic) {
      if (i >= words.length && !arg.optional) {
        throw new UsageError(`Missing required argument "${arg.name}"`, {
          hint: `give at least one (see 'jn help ${name}')`,
        });
      }
      args[arg.name] = words.slice(i);
      i = words.length;
    } else if (i < words.length) {
      const word = words[i++];
      if (arg.choices && !arg.choices.includes(word)) {
        throw badChoice(arg.choices, arg.name, word, "Unknown");
      }
      args[arg.name] = word;
    } else if (!arg.optional) {
      throw new UsageError(`Missing required argument "${arg.name}"`, {
        hint: `see 'jn help ${name}'`,
      });
    }
  }
  if (i < words.length) {
    const expected = command.args.length;
    throw new UsageError(
      `Too many arguments for "${name}": expected ${expected}, got ${words.length}: ${
        words.map((w) => JSON.stringify(w)).join(", ")
      }`,
      { hint: `quote a value with spaces or & (see 'jn help ${name}')` },
    );
  }
  return args;
}

/** `jn help WORDS…`: the path of the command or group the words name. */
export function helpTopic(
  words: readonly string[],
  tables: Tables = DEFAULT_TABLES,
): readonly string[] {
  const path: string[] = [];
  for (const word of words) {
    if (!isPrefix(tables, [...path, word]) || commandAt(tables, [...path, word])?.hidden) {
      const near = closest(word, visibleNext(tables, path));
      const where = ["jn", ...path].join(" ");
      throw new UsageError(`Unknown command "${words.join(" ")}"`, {
        hint: near !== undefined
          ? `did you mean 'jn help ${[...path, near].join(" ")}'?`
          : `${where} has: ${visibleNext(tables, path).join(", ")}`,
      });
    }
    path.push(word);
  }
  return path;
}

/** The command whose words are exactly `path`. */
export function commandAt(tables: Tables, path: readonly string[]): CommandDef | undefined {
  return tables.commands.find((c) => samePath(c.path, path));
}

function groupAt(tables: Tables, path: readonly string[]): GroupDef | undefined {
  return tables.groups.find((g) => samePath(g.path, path));
}

function isPrefix(tables: Tables, path: readonly string[]): boolean {
  return tables.commands.some((c) => path.every((word, i) => c.path[i] === word));
}

/** The words that may follow `path` (subcommands, or commands at the top), not hidden. */
export function visibleNext(tables: Tables, path: readonly string[]): string[] {
  const words = tables.commands
    .filter((c) => !c.hidden && c.path.length > path.length)
    .filter((c) => path.every((word, i) => c.path[i] === word))
    .map((c) => c.path[path.length]);
  return [...new Set(words)];
}

function samePath(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((word, i) => word === b[i]);
}

function commandName(command: CommandDef): string {
  return command.path.join(" ");
}
