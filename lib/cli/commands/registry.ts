/**
 * Every command jn has — the one list, in help order — registered on the
 * commander program. A command's module (and everything it imports) is
 * loaded only when it may run: the command an argv names is the only one
 * registered (with `help`), and all of them are registered when no command
 * is named (`jn --help`, `jn`), when an unknown one is (for suggestions),
 * and for `completions` (its script lists every command).
 *
 * @module
 */

import type { Command } from "commander";
import type { Cli } from "../context.ts";
import { registerHelp } from "./help.ts";

type Register = (program: Command, cli: Cli) => void;

/** The command names each module registers, and how to load it, in help order. */
const COMMANDS: { names: string[]; load: () => Promise<Register> }[] = [
  { names: ["inspect"], load: async () => (await import("./inspect.ts")).registerInspect },
  { names: ["cat", "head", "tail"], load: async () => (await import("./cat.ts")).registerCat },
  {
    names: ["complete"],
    load: async () => (await import("./complete.ts")).registerComplete,
  },
  { names: ["put"], load: async () => (await import("./put.ts")).registerPut },
  { names: ["filter"], load: async () => (await import("./filter.ts")).registerFilter },
  { names: ["mcp"], load: async () => (await import("./mcp.ts")).registerMcp },
  { names: ["profile"], load: async () => (await import("./profile.ts")).registerProfile },
  { names: ["auth"], load: async () => (await import("./auth.ts")).registerAuth },
  // `completions` needs every command (its script lists them); `__complete` needs only this one.
  {
    names: ["__complete"],
    load: async () => (await import("./completions.ts")).registerCompletions,
  },
];

/** Global flags that may come before the command name (none takes a value). */
const GLOBAL_FLAGS = new Set(["--debug", "-q", "--quiet"]);

/** Registers the commands `args` may run (all of them when `args` names none). */
export async function registerCommands(
  program: Command,
  cli: Cli,
  args: readonly string[] = [],
): Promise<void> {
  const name = commandName(args);
  const named = COMMANDS.find(({ names }) => name !== undefined && names.includes(name));
  const registers = await Promise.all((named ? [named] : COMMANDS).map(({ load }) => load()));
  for (const register of registers) register(program, cli);
  registerHelp(program, cli);
}

/** The command an argv invokes (`help X` invokes X's help), if it names one. */
export function commandName(args: readonly string[]): string | undefined {
  let i = 0;
  while (i < args.length && GLOBAL_FLAGS.has(args[i])) i++;
  const word = args[i];
  if (word === undefined || word.startsWith("-")) return undefined;
  if (word !== "help") return word;
  const topic = args[i + 1];
  return topic === undefined || topic.startsWith("-") ? undefined : topic;
}
