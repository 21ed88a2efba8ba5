/**
 * The parser's second phase (the first is lib/cli/parse.ts): a command line
 * that gives flags or a server argv becomes the call its command runs. Each
 * given value is applied, in the order given, by its flag's row in the real
 * command table (lib/cli/table/commands.ts), which only this phase loads; a
 * server argv's URI takes the SOURCE's place (server_argv.ts); an input
 * flag's `@FILE` or `-` is read (flag_inputs.ts). A bad value is a
 * UsageError, and nothing has run by then.
 *
 * @module
 */

import type { Io } from "./io.ts";
import { callOf } from "./parse.ts";
import type { Run } from "./parsed.ts";
import type { CommandDef, Invocation } from "./table/command.ts";
import { COMMANDS } from "./table/commands.ts";
import { PendingInput } from "./table/flag.ts";

/**
 * The call `run` asks for, its command the real row of `rows`. Without
 * `io`, an input flag's `@FILE` or `-` stays a {@linkcode PendingInput}.
 */
export async function completeCall(
  run: Run,
  io?: Io,
  rows: readonly CommandDef[] = COMMANDS,
): Promise<Invocation> {
  const row = rows.find((c) => same(c.path, run.command.path));
  if (row === undefined) throw stale(`no command "${run.command.path.join(" ")}"`);
  const options: Record<string, unknown> = {};
  for (const { flag: data, spelled, value } of run.flags) {
    const flag = row.flags.find((f) => f.long === data.long);
    if (flag === undefined) throw stale(`no flag --${data.long} in "${row.path.join(" ")}"`);
    options[flag.key] = flag.input && (value === "-" || value.startsWith("@"))
      ? new PendingInput(value, flag, spelled)
      : flag.apply(options[flag.key], value, spelled);
  }
  let words = run.positionals;
  if (run.serverArgv !== undefined) {
    const { withServerArgv } = await import("./server_argv.ts");
    words = withServerArgv(row, run.positionals, run.serverArgv);
  }
  const call = await callOf(row, options, words);
  if (io !== undefined && Object.values(options).some((v) => v instanceof PendingInput)) {
    await (await import("./flag_inputs.ts")).readFlagInputs(call, io);
  }
  return call;
}

/** The compiled tables name what the real ones lack: they are out of date. */
function stale(what: string): Error {
  return new Error(`The compiled command tables are stale (${what}): run deno task tables`);
}

function same(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((word, i) => word === b[i]);
}
