/**
 * The shape of jn's command line as the completion scripts need it: the
 * commands, their subcommands and options, taken from the command and flag
 * tables (lib/cli/table/), so that the completions can never drift from the
 * real flags.
 * Hidden commands (`__complete`) are left out.
 *
 * @module
 */

import type { Tables } from "./table/command.ts";
import { COMPILED } from "./table/compiled.ts";
import type { FlagData } from "./table/flag.ts";

/** One option: its spellings and whether it takes a value. */
export interface OptionSpec {
  /** `--long` and/or `-s`. */
  names: string[];
  /** Whether the next word is its value. */
  takesValue: boolean;
  /** Whether its value is a path (completed with file names). */
  takesPath: boolean;
  /** The values it accepts, when they are a fixed set. */
  choices?: readonly string[];
  description: string;
}

/** One command: its options (its own and the global ones) and subcommands. */
export interface CommandSpec {
  name: string;
  /** Words from the program to this command, e.g. `["mcp", "explore"]`; `[]` for jn itself. */
  path: string[];
  description: string;
  options: OptionSpec[];
  subcommands: CommandSpec[];
  /** Whether an argument is a source (an MCP URI or `@profile` reference). */
  takesSource: boolean;
  /** The values its argument takes, when they are a fixed set (`completions SHELL`). */
  argChoices?: readonly string[];
}

/** The spec of jn's command line, from the command and flag tables (their compiled data). */
export function completionSpec(tables: Tables = COMPILED): CommandSpec {
  const globals = tables.globalFlags.map(optionSpec);
  const specAt = (path: string[]): CommandSpec => {
    const command = tables.commands.find((c) =>
      c.path.length === path.length && c.path.every((w, i) => w === path[i])
    );
    const group = tables.groups.find((g) =>
      g.path.length === path.length && g.path.every((w, i) => w === path[i])
    );
    const words = [
      ...new Set(
        tables.commands
          .filter((c) => !c.hidden && c.path.length > path.length)
          .filter((c) => path.every((w, i) => c.path[i] === w))
          .map((c) => c.path[path.length]),
      ),
    ];
    const choices = command?.args.find((a) => a.choices !== undefined)?.choices;
    const own = command?.flags.filter((f) => !f.hidden).map(optionSpec) ?? [];
    return {
      name: path.length === 0 ? "jn" : path[path.length - 1],
      path,
      description: command?.summary ?? group?.summary ?? "",
      options: dedupe([
        ...own,
        ...(path.length === 0 ? [optionSpec(tables.versionFlag)] : []),
        ...globals,
      ]),
      subcommands: command === undefined ? words.map((word) => specAt([...path, word])) : [],
      takesSource: command?.args.some((a) => a.completes === "source") ?? false,
      ...(choices ? { argChoices: choices } : {}),
    };
  };
  return specAt([]);
}

function optionSpec(flag: FlagData): OptionSpec {
  return {
    names: [`--${flag.long}`, ...(flag.short ? [`-${flag.short}`] : [])],
    takesValue: flag.value !== undefined,
    takesPath: flag.completes === "path",
    ...(flag.choices ? { choices: flag.choices } : {}),
    description: flag.help,
  };
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
    command.options.filter((option) => option.takesPath).flatMap((option) => option.names)
  );
  return [...new Set(names)].sort();
}
