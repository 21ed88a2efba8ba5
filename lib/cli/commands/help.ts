/**
 * `jn help [COMMAND…]`: the help of jn or of one command (`jn help cat`,
 * `jn help mcp schema`), the same text as `--help`, on stdout, exit 0. An
 * unknown command is a usage error (exit 2) naming the closest one or listing
 * the commands, where commander's own `help` would silently print the
 * general help.
 *
 * @module
 */

import type { Command } from "commander";
import { UsageError } from "../../errors.ts";
import { closest } from "../../text/suggest.ts";
import type { Cli } from "../context.ts";

/** Replaces commander's implicit help command with jn's. */
export function registerHelp(program: Command, _cli: Cli): void {
  program.helpCommand(false);
  program.command("help")
    .description("show help for jn or for a command")
    .argument("[command...]", "a command, e.g. cat, or mcp schema")
    .action((words: string[]) => {
      let command = program;
      for (const word of words) {
        const next = command.commands.find((sub) =>
          (sub.name() === word || sub.aliases().includes(word)) && !isHidden(sub)
        );
        if (!next) {
          const known = command.commands.filter((sub) => !isHidden(sub)).map((sub) => sub.name());
          const where = command === program ? "jn" : `jn ${commandPath(command)}`;
          const near = closest(word, known);
          throw new UsageError(`Unknown command "${words.join(" ")}"`, {
            hint: near !== undefined
              ? `did you mean 'jn help ${[commandPath(command), near].filter(Boolean).join(" ")}'?`
              : `${where} has: ${known.join(", ")}`,
          });
        }
        command = next;
      }
      command.outputHelp();
    });
}

function isHidden(command: Command): boolean {
  return (command as unknown as { _hidden?: boolean })._hidden === true;
}

function commandPath(command: Command): string {
  const words: string[] = [];
  for (let c: Command | null = command; c?.parent; c = c.parent) words.unshift(c.name());
  return words.join(" ");
}
