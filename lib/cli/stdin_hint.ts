/**
 * Hints about stdin. A command that reads NDJSON from stdin says so when
 * stdin is a terminal, so a user who forgot the pipe is not left facing a
 * silent wait (the note goes to stderr only; the command still reads: typed
 * lines work, Ctrl-D ends). And a command that does not read stdin (`cat`)
 * says where piped records go when the arguments they held are missing.
 *
 * @module
 */

import { ArgumentError } from "../errors.ts";
import type { Io } from "./io.ts";
import { printErr } from "./io.ts";

/** Prints the "reading NDJSON from stdin" note when stdin is a terminal. */
export async function noteTerminalStdin(io: Io, command: string, example: string): Promise<void> {
  if (!io.tty.stdin) return;
  await printErr(io, `jn: ${command}: reading NDJSON records from stdin (end with Ctrl-D)`);
  await printErr(io, `hint: pipe records in, e.g. ${example}`);
}

/** How long jn waits for piped bytes before it decides nothing was sent. */
const PIPED_WAIT_MS = 100;

/**
 * `error`, with a hint that `jn put` reads NDJSON from stdin, when it is a
 * tool's required arguments missing while something was piped to a command
 * that does not read stdin (`echo '{"a":2}' | jn cat SRC?tool=t`). Whether
 * something was piped is read off stdin itself (the run is failing: what it
 * holds is not needed), waiting at most a moment; a terminal is never read.
 */
export async function pipedArgumentsHint(
  io: Io,
  error: unknown,
  source: string,
): Promise<unknown> {
  if (!(error instanceof ArgumentError) || error.hint !== undefined || io.tty.stdin) return error;
  if (!error.violations.some((v) => v.message.startsWith("is required"))) return error;
  if (!(await somethingPiped(io))) return error;
  error.hint = `jn put reads NDJSON from stdin (… | jn put ${
    JSON.stringify(source)
  }); jn cat reads one object with --args -`;
  return error;
}

/** Whether stdin yields a byte within {@linkcode PIPED_WAIT_MS} (not at its end). */
async function somethingPiped(io: Io): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const reader = io.stdin.getReader();
    const read = reader.read().then(({ value }) => value !== undefined && value.length > 0);
    read.catch(() => {});
    const waited = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), PIPED_WAIT_MS);
    });
    return await Promise.race([read, waited]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}
