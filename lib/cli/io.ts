/**
 * The process boundary of the CLI: standard streams, environment, working
 * directory and TTY facts, gathered once so commands can be run against
 * plain data in tests.
 *
 * @module
 */

import { type ByteWriter, writeAll } from "../ndjson/write_all.ts";

/** A signal that interrupts jn. */
export type StopSignal = "SIGINT" | "SIGTERM" | "SIGHUP" | "SIGQUIT";

/** Everything the CLI touches of the outside world. */
export interface Io {
  stdout: ByteWriter;
  stderr: ByteWriter;
  stdin: ReadableStream<Uint8Array>;
  env: Record<string, string>;
  cwd: string;
  /** Which standard streams are terminals. */
  tty: { stdin: boolean; stdout: boolean; stderr: boolean };
  /**
   * Where interrupts come from when not from this process's signals (a
   * command forwarded to a session: its caller's): installs `handler` for
   * each one and returns what uninstalls it. The process is never ended
   * for a second one: the caller does that to itself.
   */
  interrupts?: (handler: (signal: StopSignal) => void) => () => void;
}

/** The real process's Io. */
export function denoIo(): Io {
  return {
    stdout: Deno.stdout,
    stderr: Deno.stderr,
    // On first use: creating the stream loads Deno's streams code, which
    // commands that never read stdin (`profile list`) do without.
    get stdin() {
      return Deno.stdin.readable;
    },
    env: Deno.env.toObject(),
    cwd: Deno.cwd(),
    tty: {
      stdin: Deno.stdin.isTerminal(),
      stdout: Deno.stdout.isTerminal(),
      stderr: Deno.stderr.isTerminal(),
    },
  };
}

/** True when diagnostics on stderr may use colour: a TTY and no `NO_COLOR`. */
export function useColor(io: Io): boolean {
  return io.tty.stderr && !(io.env.NO_COLOR ?? "") && io.env.TERM !== "dumb";
}

/**
 * Writes a line of text to stderr, ignoring a closed stderr. Server text is
 * made visible where it is formatted (lib/output/visible.ts); as a last line
 * of defence, any control character left in `text` is shown escaped, except
 * jn's own colour codes when colour is on. (The escaping module loads on
 * the first line: a run that writes nothing to stderr never loads it.)
 */
export async function printErr(io: Io, text: string): Promise<void> {
  try {
    const { terminalSafe } = await import("../output/visible.ts");
    const safe = terminalSafe(text, useColor(io));
    await writeAll(io.stderr, new TextEncoder().encode(safe.endsWith("\n") ? safe : safe + "\n"));
  } catch {
    // Nowhere left to report to.
  }
}
