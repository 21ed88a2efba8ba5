/**
 * The help texts of `jn --help`, `jn help CMD` and `jn CMD --help`, made
 * from the command and flag tables (lib/cli/table/): usage, the summary,
 * arguments, options with their defaults, subcommands, and the command's
 * own footer. Always 80 columns wide, so the text is the same on a
 * terminal, in a pipe and in the docs.
 *
 * @module
 */

import type { ArgDef, CommandDef } from "./table/command.ts";
import { COMMANDS, GROUPS, PROGRAM_SUMMARY } from "./table/commands.ts";
import type { AnyFlag } from "./table/flag.ts";
import { GLOBAL_FLAGS, HELP, VERSION_FLAG } from "./table/flags.ts";
import { FOOTERS, programFooter } from "./table/footers.ts";
import { wrap } from "./help_wrap.ts";
import type { Tables } from "./parse.ts";

const WIDTH = 80;

/** The help of the command or group at `path` (`[]`: jn itself). */
export function helpText(
  path: readonly string[],
  tables: Tables = { commands: COMMANDS, groups: GROUPS },
): string {
  const command = tables.commands.find((c) => same(c.path, path));
  if (command !== undefined) return commandHelp(command);
  const subcommands = tables.commands.filter((c) =>
    !c.hidden && c.path.length === path.length + 1 && path.every((w, i) => c.path[i] === w)
  );
  const groups = tables.groups.filter((g) =>
    g.path.length === path.length + 1 && path.every((w, i) => g.path[i] === w)
  );
  const name = ["jn", ...path].join(" ");
  const summary = path.length === 0
    ? PROGRAM_SUMMARY
    : groupSummary(tables, path, tables.groups.find((g) => same(g.path, path))?.summary ?? "");
  const rows: [string, string][] = [];
  // Commands and groups in the table's order (a group where its first command is).
  const seen = new Set<string>();
  for (const c of tables.commands) {
    if (c.hidden || !path.every((w, i) => c.path[i] === w) || c.path.length <= path.length) {
      continue;
    }
    const word = c.path[path.length];
    if (seen.has(word)) continue;
    seen.add(word);
    const group = groups.find((g) => g.path[path.length] === word);
    const sub = subcommands.find((s) => s.path[path.length] === word);
    // jn's own list names the commands; each one's help has its usage.
    if (sub !== undefined) {
      rows.push([path.length === 0 ? word : `${word}${usageTail(sub)}`, sub.summary]);
    } else if (group !== undefined) {
      rows.push([word, groupSummary(tables, group.path, group.summary)]);
    }
  }
  const options = path.length === 0 ? [VERSION_FLAG, ...GLOBAL_FLAGS] : [HELP];
  return [
    `Usage: ${name} [options] [command]`,
    "",
    wrap(summary, WIDTH),
    "",
    "Options:",
    table(options.map((flag) => optionRow(flag))),
    "",
    "Commands:",
    table(rows),
    path.length === 0 ? programFooter() : "",
  ].join("\n").replace(/\n+$/, "") + "\n";
}

function commandHelp(command: CommandDef): string {
  const name = ["jn", ...command.path].join(" ");
  const lines = [`Usage: ${name}${usageTail(command)}`, "", wrap(command.summary, WIDTH), ""];
  if (command.args.length > 0) {
    lines.push("Arguments:", table(command.args.map((a) => [a.name, a.help])), "");
  }
  const flags = command.flags.filter((f) => !f.hidden);
  lines.push("Options:", table([...flags, HELP].map((f) => optionRow(f, command))));
  if (command.footer !== undefined) {
    const footer = FOOTERS[command.footer as keyof typeof FOOTERS];
    if (footer === undefined) throw new Error(`No help footer named "${command.footer}"`);
    lines.push(footer());
  }
  return lines.join("\n") + "\n";
}

/** ` [options] <source> [partial]` after a command's words. */
function usageTail(command: CommandDef): string {
  const options = command.flags.some((f) => !f.hidden) ? " [options]" : "";
  // A SOURCE may be a server's argv at the end (lib/cli/server_argv.ts).
  const argv = command.args.some((a) => a.argv) ? " [-- PROGRAM ARGS...]" : "";
  return options + command.args.map((a) => ` ${argUsage(a)}`).join("") + argv;
}

function argUsage(arg: ArgDef): string {
  const name = arg.variadic ? `${arg.name}...` : arg.name;
  return arg.optional ? `[${name}]` : `<${name}>`;
}

/** A group's help line, ending with its subcommands. */
function groupSummary(tables: Tables, path: readonly string[], summary: string): string {
  const words = tables.commands
    .filter((c) => !c.hidden && c.path.length > path.length)
    .filter((c) => path.every((w, i) => c.path[i] === w))
    .map((c) => c.path[path.length]);
  return `${summary}: ${[...new Set(words)].join(", ")}`;
}

function optionRow(flag: AnyFlag, command?: CommandDef): [string, string] {
  const names = [flag.short ? `-${flag.short}` : undefined, `--${flag.long}`]
    .filter(Boolean).join(", ");
  const term = flag.value === undefined ? names : `${names} <${flag.value}>`;
  const notes: string[] = [];
  if (flag.choices) notes.push(`one of: ${flag.choices.join(", ")}`);
  if (flag.repeatable) notes.push("repeatable");
  const shown = command?.defaults?.[flag.key]?.shown ?? flag.shown ??
    (flag.default === undefined ? undefined : JSON.stringify(flag.default));
  if (shown !== undefined) notes.push(`default: ${shown}`);
  return [term, notes.length > 0 ? `${flag.help} (${notes.join("; ")})` : flag.help];
}

/** Two columns: terms, then their text wrapped beside them. */
function table(rows: readonly [string, string][]): string {
  const width = Math.min(Math.max(...rows.map(([term]) => term.length)) + 2, 34);
  return rows.map(([term, text]) => {
    const indent = 2 + width;
    const body = wrap(text, WIDTH - indent).split("\n");
    const first = term.length + 2 > width
      ? [`  ${term}`, `${" ".repeat(indent)}${body[0]}`]
      : [`  ${term.padEnd(width)}${body[0]}`];
    return [...first, ...body.slice(1).map((line) => `${" ".repeat(indent)}${line}`)].join("\n");
  }).join("\n");
}

function same(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((w, i) => w === b[i]);
}
