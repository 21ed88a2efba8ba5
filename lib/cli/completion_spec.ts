/**
 * The shape of jn's command line as the completion scripts need it: the
 * commands, their subcommands and options, taken from the commander program
 * itself so that the completions can never drift from the real flags.
 * Hidden commands (`__complete`) are left out.
 *
 * @module
 */

import type { Command } from "commander";

/** One option: its spellings and whether it takes a value. */
export interface OptionSpec {
  /** `--long` and/or `-s`. */
  names: string[];
  /** Whether the next word is its value. */
  takesValue: boolean;
  /** The value's placeholder, e.g. `path` for `--root <path>`. */
  valueName?: string;
  description: string;
}

/** One command: its options (its own and the inherited global ones) and subcommands. */
export interface CommandSpec {
  name: string;
  /** Words from the program to this command, e.g. `["mcp", "explore"]`; `[]` for jn itself. */
  path: string[];
  description: string;
  options: OptionSpec[];
  subcommands: CommandSpec[];
  /** Whether an argument is a source (an MCP URI or `@profile` reference). */
  takesSource: boolean;
}

/** Options whose value is a path (completed with file names). */
export const PATH_VALUE_NAMES = ["path", "file", "dir"];

/** The spec of `program` and everything under it. */
export function completionSpec(program: Command): CommandSpec {
  return specOf(program, [], []);
}

function specOf(command: Command, path: string[], inherited: OptionSpec[]): CommandSpec {
  const help = command.createHelp();
  const own = help.visibleOptions(command).map(optionSpec);
  // Options of the program (--debug, --quiet) are accepted after every command.
  const options = dedupe([...own, ...inherited]);
  const globals = path.length === 0 ? own.filter((o) => !isHelpOrVersion(o)) : inherited;
  const subcommands = help.visibleCommands(command)
    // commander's implicit `help` of command groups; jn's own `help` is a real command.
    .filter((sub) => path.length === 0 || sub.name() !== "help")
    .map((sub) => specOf(sub, [...path, sub.name()], globals));
  const args = (command as unknown as { registeredArguments?: { name(): string }[] })
    .registeredArguments ?? [];
  return {
    name: command.name(),
    path,
    description: command.description(),
    options,
    subcommands,
    takesSource: args.some((arg) => ["source", "target", "server"].includes(arg.name())),
  };
}

function optionSpec(option: {
  long?: string;
  short?: string;
  required: boolean;
  optional: boolean;
  flags: string;
  description: string;
}): OptionSpec {
  const names = [option.long, option.short].filter((name): name is string => Boolean(name));
  const valueName = /[<[]([^>\]]+)[>\]]/.exec(option.flags)?.[1];
  return {
    names,
    takesValue: option.required || option.optional,
    ...(valueName ? { valueName } : {}),
    description: option.description,
  };
}

function isHelpOrVersion(option: OptionSpec): boolean {
  return option.names.includes("--help") || option.names.includes("--version");
}

function dedupe(options: OptionSpec[]): OptionSpec[] {
  const seen = new Set<string>();
  return options.filter((option) => {
    const key = option.names.join(" ");
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Every command in the spec, depth first (the program itself first). */
export function allCommands(spec: CommandSpec): CommandSpec[] {
  return [spec, ...spec.subcommands.flatMap(allCommands)];
}

/** Every option that takes a value, anywhere in the spec. */
export function valueOptions(spec: CommandSpec): string[] {
  const names = allCommands(spec).flatMap((command) =>
    command.options.filter((option) => option.takesValue).flatMap((option) => option.names)
  );
  return [...new Set(names)].sort();
}

/** Options that take a path, anywhere in the spec. */
export function pathOptions(spec: CommandSpec): string[] {
  const names = allCommands(spec).flatMap((command) =>
    command.options
      .filter((option) => PATH_VALUE_NAMES.includes(option.valueName ?? ""))
      .flatMap((option) => option.names)
  );
  return [...new Set(names)].sort();
}
