/**
 * Every command jn has, registered on the commander program in help order.
 * A command's module (and everything it imports) is loaded only when it may
 * run: the command an argv names is the only one registered (with `help`),
 * and all of them are registered when no command is named (`jn --help`,
 * `jn`), when an unknown one is (for suggestions), and for `completions`
 * (its script lists every command).
 *
 * @module
 */

import type { Command } from "commander";
import type { Ctx } from "../main.ts";
import { registerHelp } from "./help.ts";

type Register = (program: Command, ctx: Ctx) => void;

/** The command names each module registers, and how to load it (all.ts has them all). */
const MODULES: [names: string[], load: () => Promise<Register>][] = [
  [["inspect"], async () => (await import("./inspect.ts")).registerInspect],
  [["cat", "head", "tail"], async () => (await import("./cat.ts")).registerCat],
  [["put"], async () => (await import("./put.ts")).registerPut],
  [["filter"], async () => (await import("./filter.ts")).registerFilter],
  [["mcp"], async () => (await import("./mcp.ts")).registerMcp],
  [["profile"], async () => (await import("./profile.ts")).registerProfile],
  [["auth"], async () => (await import("./auth.ts")).registerAuth],
  [["__complete"], async () => (await import("./completions.ts")).registerCompletions],
];

/** Global flags that may come before the command name (none takes a value). */
const GLOBAL_FLAGS = new Set(["--debug", "-q", "--quiet"]);

/** Registers the commands `args` may run (all of them when `args` names none). */
export async function registerCommands(
  program: Command,
  ctx: Ctx,
  args: readonly string[] = [],
): Promise<void> {
  const name = commandName(args);
  const named = MODULES.find(([names]) => name !== undefined && names.includes(name));
  const registers = named ? [await named[1]()] : (await import("./all.ts")).ALL_COMMANDS;
  for (const register of registers) register(program, ctx);
  registerHelp(program, ctx);
  // A deliberate bug, hidden from help: lets the tests prove that an
  // unexpected exception exits 70 with a one-line message (and a stack under --debug).
  program.command("__internal-error", { hidden: true }).action(() => {
    throw new TypeError("deliberate internal error for tests");
  });
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
