/**
 * A command that reads NDJSON from stdin says so when stdin is a terminal,
 * so a user who forgot the pipe is not left facing a silent wait. The note
 * goes to stderr only; the command still reads (typed lines work, Ctrl-D ends).
 *
 * @module
 */

import type { Io } from "./io.ts";
import { printErr } from "./io.ts";

/** Prints the "reading NDJSON from stdin" note when stdin is a terminal. */
export async function noteTerminalStdin(io: Io, command: string, example: string): Promise<void> {
  if (!io.tty.stdin) return;
  await printErr(io, `jn: ${command}: reading NDJSON records from stdin (end with Ctrl-D)`);
  await printErr(io, `hint: pipe records in, e.g. ${example}`);
}
