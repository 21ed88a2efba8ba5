/**
 * The calling side of command forwarding (docs/session.md "How a command
 * runs in a session"): before loading any of jn's commands or the MCP SDK,
 * `jn` looks for a running session whose source its command line names,
 * and asks that session to run the whole command — argv, directory,
 * environment and TTY facts go over the session's private socket
 * (lib/client/session_frames.ts); then it only pumps bytes: its stdin when
 * the command reads, the command's stdout and stderr, its interrupts, and
 * finally the exit status.
 *
 * Guarantees: nothing runs here unless the session says it takes the
 * command (it decides, with the whole of jn's policy: forward_serve.ts); a
 * session that does not, that cannot be reached, or a sessions directory
 * that is not private, gives `undefined` and the caller runs the command
 * itself, as without sessions; `--no-session` never asks. stdin is read
 * only when the command asks for it, so a command that reads none leaves
 * it for what comes next. The first signal interrupts the command (it
 * cancels its calls and exits 130); a second ends this process at once
 * (130). A session that ends while running the command gives exit 4 and
 * what to do. Before anything is sent, the sessions directory is checked
 * whole — it and every folder above it private (session_dir.ts
 * `checkPrivateDir`; who runs jn found out when `/proc` cannot tell) — and
 * its records read again from its real path; the socket connected to is
 * `KEY.sock` of a record's key in that directory, a socket of the user's
 * own (never a path a record names), and the directory is checked to be
 * the same one once connected. A reason a session gives and its source
 * reach the terminal with control characters made visible. Free of jn's
 * other modules but a few small ones: this is all a forwarded command
 * loads.
 *
 * @module
 */

import { type CheckedDir, checkPrivateDir } from "../client/session_dir.ts";
import {
  FORWARD_MAGIC,
  FRAME,
  type Frame,
  frame,
  FrameReader,
  MAX_HELLO_BYTES,
  textFrame,
} from "../client/session_frames.ts";
import { visible } from "../output/visible.ts";
import { ExitCode } from "./exit_table.ts";
import { type Candidate, type Sessions, sessionsIn } from "./forward_lookup.ts";

/** The signals that interrupt a forwarded command. */
const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT"] as const;

/** A repeat of the first signal this soon is the same one delivered twice (signals.ts). */
const DUPLICATE_MS = 250;

/**
 * Runs the command in one of the `sessions` its command line names
 * (forward_lookup.ts) when one takes it: its exit status; or undefined when
 * the caller must run it itself.
 */
export async function forwardToSession(
  args: readonly string[],
  { dir, env, words }: Sessions,
): Promise<number | undefined> {
  const debug = words.includes("--debug");
  const checked = await checkPrivateDir(dir).catch((error) => ({ problem: `${error?.message}` }));
  if ("problem" in checked) {
    if (debug) {
      await say(`jn: debug: not using sessions: ${dir} is not private: ${checked.problem}`);
    }
    return undefined;
  }
  let candidates: Candidate[];
  try {
    candidates = sessionsIn(checked.path, args);
  } catch {
    return undefined;
  }
  const hello = new TextEncoder().encode(JSON.stringify({
    argv: args,
    cwd: Deno.cwd(),
    env,
    tty: {
      stdin: Deno.stdin.isTerminal(),
      stdout: Deno.stdout.isTerminal(),
      stderr: Deno.stderr.isTerminal(),
    },
  }));
  if (hello.length > MAX_HELLO_BYTES) return undefined; // a session takes none so long
  for (const candidate of candidates) {
    const conn = await connect(checked, candidate.key);
    if (!conn) continue;
    const link = new Link(conn);
    const signals = new Interrupts(link);
    try {
      await link.send(join(FORWARD_MAGIC, frame(FRAME.hello, hello)));
      // No bound of time here: a timer costs a fresh process more than the whole exchange, and
      // a Ctrl-C ends the wait (this jn exits 130, and the session drops the command).
      const answer = await link.next();
      if (answer?.kind === FRAME.accept) {
        signals.accepted = true;
        return await pump(link, candidate.source);
      }
      if (answer?.kind === FRAME.decline && debug) {
        const why = new TextDecoder().decode(answer.payload);
        await say(
          `jn: debug: not run in the session of ${visible(candidate.source, { oneLine: true })}: ${
            visible(why, { oneLine: true })
          }`,
        );
      }
    } catch {
      // A session that broke off before taking the command: the command runs here.
    } finally {
      signals.remove();
      link.close();
    }
  }
  return undefined;
}

/**
 * A connection to the session `key` of the checked directory: its socket
 * must be a socket of the user's own, and the directory still the one
 * checked once connected; else undefined.
 */
async function connect(dir: CheckedDir, key: string): Promise<Deno.UnixConn | undefined> {
  const path = `${dir.path}/${key}.sock`;
  const socket = await Deno.lstat(path).catch(() => undefined);
  if (!socket?.isSocket || socket.uid !== dir.uid) return undefined;
  const conn = await Deno.connect({ transport: "unix", path }).catch(() => undefined);
  const now = await Deno.lstat(dir.path).catch(() => undefined);
  if (conn && now?.dev === dir.dev && now.ino === dir.ino && now.isDirectory) return conn;
  try {
    conn?.close();
  } catch { /* closed */ }
  return undefined;
}

async function say(line: string): Promise<void> {
  await writeAll(Deno.stderr, `${line}\n`).catch(() => {});
}

/**
 * The caller's signals while a session has its command: before the session
 * takes it, one ends this jn (130: nothing ran); after, the first goes to
 * the command (it cancels its calls and exits 130) and a second ends this
 * jn at once.
 */
class Interrupts {
  accepted = false;
  #link: Link;
  #first?: string;
  #firstAt = 0;
  #listeners: (() => void)[];

  constructor(link: Link) {
    this.#link = link;
    this.#listeners = SIGNALS.map((signal) => {
      const listener = () => this.#on(signal);
      Deno.addSignalListener(signal, listener);
      return listener;
    });
  }

  #on(signal: string): void {
    if (!this.accepted) Deno.exit(ExitCode.interrupted);
    if (this.#first === undefined) {
      this.#first = signal;
      this.#firstAt = performance.now();
      this.#link.send(textFrame(FRAME.interrupt, signal)).catch(() => {});
    } else if (signal !== this.#first || performance.now() - this.#firstAt >= DUPLICATE_MS) {
      Deno.exit(ExitCode.interrupted);
    }
  }

  remove(): void {
    SIGNALS.forEach((signal, at) => Deno.removeSignalListener(signal, this.#listeners[at]));
  }
}

/** Pumps the command's streams until it exits; returns its exit status. */
async function pump(link: Link, source: string): Promise<number> {
  let stdoutOpen = true;
  for (;;) {
    const message = await link.next();
    if (message === undefined) return await gone(source, "ended while running the command");
    switch (message.kind) {
      case FRAME.stdout:
        if (!stdoutOpen) break;
        try {
          await writeAll(Deno.stdout, message.payload);
        } catch {
          stdoutOpen = false;
          await link.send(frame(FRAME.stdoutClosed)).catch(() => {});
        }
        break;
      case FRAME.stderr:
        await writeAll(Deno.stderr, message.payload).catch(() => {});
        break;
      case FRAME.pull:
        void readStdin(link, new DataView(message.payload.buffer).getUint32(0));
        break;
      case FRAME.exit:
        return message.payload[0] ?? 1;
    }
  }
}

/** Reads once from stdin (at most `most` bytes) and sends what came, or its end. */
async function readStdin(link: Link, most: number): Promise<void> {
  const buffer = new Uint8Array(Math.max(1, Math.min(most, 1024 * 1024)));
  let read: number | null;
  try {
    read = await Deno.stdin.read(buffer);
  } catch {
    read = null;
  }
  await link.send(
    read === null ? frame(FRAME.stdinEnd) : frame(FRAME.stdin, buffer.subarray(0, read)),
  ).catch(() => {});
}

/** The session went away: said as jn says a failure, exit 4. */
async function gone(source: string, what: string): Promise<number> {
  await writeAll(
    Deno.stderr,
    `jn: the session of ${visible(source, { oneLine: true })} ${what}\n` +
      `hint: see jn session list; run the command again, or with --no-session\n`,
  ).catch(() => {});
  return ExitCode.connection;
}

/** The socket, as frames. */
class Link {
  #conn: Deno.UnixConn;
  #reader = new FrameReader();
  #writing = Promise.resolve();
  #buffer = new Uint8Array(64 * 1024);

  constructor(conn: Deno.UnixConn) {
    this.#conn = conn;
  }

  send(bytes: Uint8Array): Promise<void> {
    const write = this.#writing.then(() => writeAll(this.#conn, bytes));
    this.#writing = write.catch(() => {});
    return write;
  }

  /** The next frame; undefined at the end of the connection. */
  async next(): Promise<Frame | undefined> {
    for (;;) {
      const ready = this.#reader.next();
      if (ready) return ready;
      const read = await this.#conn.read(this.#buffer).catch(() => null);
      if (read === null) return undefined;
      this.#reader.push(this.#buffer.subarray(0, read));
    }
  }

  close(): void {
    try {
      this.#conn.close();
    } catch { /* already closed */ }
  }
}

async function writeAll(
  writer: { write(bytes: Uint8Array): Promise<number> },
  data: Uint8Array | string,
): Promise<void> {
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  for (let at = 0; at < bytes.length;) at += await writer.write(bytes.subarray(at));
}

function join(a: Uint8Array, b: Uint8Array): Uint8Array {
  const joined = new Uint8Array(a.length + b.length);
  joined.set(a);
  joined.set(b, a.length);
  return joined;
}
