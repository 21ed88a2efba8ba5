/**
 * The one parser of jn's command line: argv → the command it runs, its
 * arguments and its typed options, read from the command and flag tables
 * (lib/cli/table/) and nothing else. Every path goes through it: calls,
 * help, completion scripts, the demo server. A command line it cannot read
 * is a UsageError naming what was wrong, with the closest command, option
 * or value as the hint; nothing has run by then.
 *
 * Two phases: this module reads the words against the tables' data (at
 * start-up, lib/cli/table/compiled.ts), which flags were given with which
 * values included; a run that gives none (and no server argv) is then
 * complete ({@linkcode plainCall}), else lib/cli/call.ts applies each value
 * through its row in the real tables, in order.
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

import type { UsageError } from "../errors.ts";
import type { GivenFlag, Globals, Parsed, Run } from "./parsed.ts";
import type { CommandData, GroupDef, Invocation, Tables } from "./table/command.ts";
import { COMPILED } from "./table/compiled.ts";
import type { FlagData } from "./table/flag.ts";

/**
 * Reads `argv` (without the program name), the whole of it, against
 * `tables` (default: the compiled tables); rejects with a UsageError.
 */
export function parseArgs(argv: readonly string[], tables: Tables = COMPILED): Promise<Parsed> {
  return reading(() => readArgs(argv, tables));
}

/**
 * A mistake on the command line, thrown where it is found and made its
 * UsageError by {@linkcode reading}: the messages and their did-you-mean
 * (parse_errors.ts) load only when a command line has a mistake.
 */
class Mistake {
  constructor(readonly error: (messages: typeof import("./parse_errors.ts")) => UsageError) {}
}

/** `read()`, its {@linkcode Mistake} made a UsageError. */
async function reading<T>(read: () => T): Promise<T> {
  try {
    return read();
  } catch (error) {
    if (error instanceof Mistake) throw error.error(await import("./parse_errors.ts"));
    throw error;
  }
}

function readArgs(argv: readonly string[], tables: Tables): Parsed {
  const globals: Globals = { debug: false, quiet: false };
  let help = false;
  let version = false;
  const rest: string[] = [];
  const spells = (flag: FlagData, arg: string) =>
    arg === `--${flag.long}` || (flag.short !== undefined && arg === `-${flag.short}`);
  // Pass 1: the global flags, wherever they are (before `--`).
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--") {
      rest.push(...argv.slice(i));
      break;
    }
    const global = tables.globalFlags.find((flag) => spells(flag, arg));
    if (global?.key === "help") help = true;
    else if (global !== undefined) globals[global.key as keyof Globals] = true;
    else if (spells(tables.versionFlag, arg) && rest.length === 0) version = true;
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
        throw new Mistake((m) => m.unknownCommand(visibleNext(tables, path), path, word));
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
      throw new Mistake((m) =>
        m.unknownOption(first, [tables.versionFlag], tables.globalFlags, "jn")
      );
    }
    if (help) return { kind: "help", path, globals };
    throw new Mistake((m) => m.missingSubcommand(visibleNext(tables, path), path));
  }
  if (help) return { kind: "help", path: command.path, globals };
  if (version) {
    throw new Mistake((m) =>
      m.unknownOption("--version", command.flags, tables.globalFlags, name(command))
    );
  }
  return { kind: "run", globals, command, ...readCommand(command, rest.slice(i), tables) };
}

/** The flags and arguments after a command's words. */
function readCommand(
  command: CommandData,
  words: readonly string[],
  tables: Tables,
): Pick<Run, "positionals" | "flags" | "serverArgv"> {
  const flags: GivenFlag[] = [];
  const positionals: string[] = [];
  const unknown = (spelled: string) =>
    new Mistake((m) => m.unknownOption(spelled, command.flags, tables.globalFlags, name(command)));
  const give = (flag: FlagData, spelled: string, value: string) => {
    const choices = flag.choices;
    if (choices && !choices.includes(value)) {
      throw new Mistake((m) => m.badChoice(choices, spelled, value));
    }
    flags.push({ flag, spelled, value });
  };
  for (let i = 0; i < words.length; i++) {
    const word = words[i];
    if (word === "--") {
      // A command that takes a SOURCE takes the server's argv there (lib/cli/server_argv.ts).
      if (command.args.some((arg) => arg.argv)) {
        return { positionals, flags, serverArgv: words.slice(i + 1) };
      }
      positionals.push(...words.slice(i + 1));
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
      if (flag === undefined) throw unknown(spelled);
      if (flag.value === undefined) {
        if (eq !== -1) throw new Mistake((m) => m.takesNoValue(spelled, name(command)));
        give(flag, spelled, "");
      } else if (eq !== -1) give(flag, spelled, word.slice(eq + 1));
      else if (i + 1 < words.length) give(flag, spelled, words[++i]);
      else throw new Mistake((m) => m.missingValue(flag, spelled, name(command)));
      continue;
    }
    // One or more short flags: -n 5, -n5, -qy.
    for (let j = 1; j < word.length; j++) {
      const spelled = `-${word[j]}`;
      const flag = command.flags.find((f) => f.short === word[j]);
      if (flag === undefined) throw unknown(spelled);
      if (flag.value === undefined) {
        give(flag, spelled, "");
        continue;
      }
      if (j + 1 < word.length) give(flag, spelled, word.slice(j + 1));
      else if (i + 1 < words.length) give(flag, spelled, words[++i]);
      else throw new Mistake((m) => m.missingValue(flag, spelled, name(command)));
      break;
    }
  }
  return { positionals, flags };
}

/** The call of a run without flags or server argv, from the data alone (else: call.ts). */
export function plainCall(run: Run): Promise<Invocation | undefined> {
  if (run.flags.length > 0 || run.serverArgv !== undefined) return Promise.resolve(undefined);
  return callOf(run.command, {}, run.positionals);
}

/**
 * A call from its row, the options its given flags set (the `given` fields)
 * and its words: the other fields defaulted from the row's data.
 */
export function callOf(
  command: CommandData,
  set: Record<string, unknown>,
  words: readonly string[],
): Promise<Invocation> {
  return reading(() => {
    const args = bindArguments(command, words);
    const given = new Set(Object.keys(set));
    return { command, args, options: withDefaults(command, set), given } as unknown as Invocation;
  });
}

/** The options given, and each other field's default from the row's data. */
function withDefaults(command: CommandData, set: Record<string, unknown>): Record<string, unknown> {
  const options = { ...set };
  for (const flag of command.flags) {
    if (flag.key in options) continue;
    const own = command.defaults?.[flag.key];
    const value = own ? own.value : flag.default;
    if (value !== undefined) options[flag.key] = value;
  }
  return options;
}

/** Positional words → the command's arguments by name. */
function bindArguments(
  command: CommandData,
  words: readonly string[],
): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  let i = 0;
  for (const arg of command.args) {
    if (arg.variadic) {
      if (i >= words.length && !arg.optional) {
        throw new Mistake((m) => m.missingArgument(arg, name(command)));
      }
      args[arg.name] = words.slice(i);
      i = words.length;
    } else if (i < words.length) {
      const word = words[i++];
      const choices = arg.choices;
      if (choices && !choices.includes(word)) {
        throw new Mistake((m) => m.badChoice(choices, arg.name, word, "Unknown"));
      }
      args[arg.name] = word;
    } else if (!arg.optional) throw new Mistake((m) => m.missingArgument(arg, name(command)));
  }
  if (i < words.length) {
    throw new Mistake((m) => m.tooManyArguments(name(command), command.args.length, words));
  }
  return args;
}

/** `jn help WORDS…`: the path of the command or group the words name. */
export function helpTopic(
  words: readonly string[],
  tables: Tables = COMPILED,
): Promise<readonly string[]> {
  return reading(() => {
    const path: string[] = [];
    for (const word of words) {
      if (!isPrefix(tables, [...path, word]) || commandAt(tables, [...path, word])?.hidden) {
        const next = visibleNext(tables, path);
        throw new Mistake((m) => m.unknownHelpTopic(words, [...path], word, next));
      }
      path.push(word);
    }
    return path;
  });
}

/** The command whose words are exactly `path`. */
export function commandAt<C extends CommandData>(
  tables: Tables<C>,
  path: readonly string[],
): C | undefined {
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

function name(command: CommandData): string {
  return command.path.join(" ");
}
