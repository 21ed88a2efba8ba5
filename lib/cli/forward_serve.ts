/**
 * The session's side of command forwarding (docs/session.md "How a command
 * runs in a session"): a calling `jn` (forward.ts) sends its whole command
 * — argv, directory, environment, TTY facts — and the session's process
 * runs it with jn's own `main()`, over an Io whose streams are the frames
 * of the private socket (lib/client/session_frames.ts). The command's
 * `open()` finds this very session and reaches its server in memory
 * (lib/client/session_local.ts), through the same SDK client and proxy
 * connection as a call over the socket: records, stderr and exit status
 * are those of that call.
 *
 * Guarantees: a command runs here only when it may — a command that
 * `forwards` (the table), whose source resolves, in the caller's directory
 * and environment, to this session's with the same launch options and jn
 * version (the lookup every call makes, trust checked by resolution itself:
 * lib/client/session_lookup.ts `ownSessionRefuses`); anything else is
 * declined, and the caller runs it itself. The command reads the caller's
 * stdin only when it asks (one pull, one read); an interrupt from the caller goes to the
 * command's handlers (it cancels its calls, exits 130), and a caller that goes away is an
 * interrupt too, its output dropped. No failure of a forwarded command ends the session
 * (session_run.ts keeps a stray rejection from ending the process).
 *
 * @module
 */

import { ownSessionRefuses } from "../client/session_lookup.ts";
import { resolveTarget } from "../client/resolve.ts";
import { FRAME, frame, FrameReader, textFrame } from "../client/session_frames.ts";
import { launchOptions } from "./connect.ts";
import type { Cli } from "./context.ts";
import { type Io, printErr, type StopSignal } from "./io.ts";
import { loadFromSource, main } from "./main.ts";
import { COMMANDS } from "./table/commands.ts";
import { parseArgs } from "./parse.ts";
import { completeCall } from "./call.ts";
import type { LoadCommand } from "./table/command.ts";
import { ExitCode } from "./exit_table.ts";

/** How long a caller may take to say what to run (ms). */
const HELLO_MS = 10_000;

/** The most bytes of one frame of output (a longer write is sent in several). */
const OUTPUT_FRAME_BYTES = 1024 * 1024;

/** What a caller asks to run. */
interface Hello {
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  tty: Io["tty"];
}

/** Serves a forwarding connection (bytes after the magic: `rest`); `greeted`: its hello came. */
export async function serveForward(
  conn: Deno.UnixConn,
  rest: Uint8Array,
  load?: LoadCommand,
  greeted?: () => void,
): Promise<void> {
  const run = new ForwardedRun(conn, rest);
  try {
    const hello = await run.hello().finally(() => greeted?.());
    if (hello === undefined) return;
    const decision = await decide(hello).catch((error) => ({
      refusal: `${(error as Error)?.message}`,
      debug: false,
    }));
    if (decision.refusal !== undefined) {
      return await run.send(textFrame(FRAME.decline, decision.refusal));
    }
    await run.send(frame(FRAME.accept));
    const io = run.io(hello);
    if (decision.debug) {
      await printErr(io, `jn: debug: run by the session's process (pid ${Deno.pid}), forwarded`);
    }
    const code = await main(hello.argv, io, load);
    await run.exit(code);
  } finally {
    run.close();
  }
}

/**
 * Loads the modules of every command that forwards (and what their first
 * run loads), once the session serves: its first forwarded command runs as
 * fast as the next.
 */
export async function warmUp(load: LoadCommand = loadFromSource): Promise<void> {
  const modules = new Set(COMMANDS.filter((command) => command.forwards).map((c) => c.module));
  for (const module of modules) await load(module).catch(() => {});
  await import("../session/socket_channel.ts").catch(() => {});
}

/** Why the command must not run in this session (none: it runs here), and whether it debugs. */
async function decide(hello: Hello): Promise<{ refusal?: string; debug: boolean }> {
  const parsed = await parseArgs(hello.argv);
  const debug = parsed.globals.debug;
  if (parsed.kind !== "run") return { refusal: "not a command that runs", debug };
  const { command, args, options } = await completeCall(parsed); // no Io: reads no input
  const refused = `jn ${command.path.join(" ")} does not run in a session`;
  if (!command.forwards) return { refusal: refused, debug };
  const name = command.args.find((arg) => arg.completes === "source")?.name;
  const source = name === undefined ? undefined : (args as Record<string, unknown>)[name];
  if (typeof source !== "string") return { refusal: "no source", debug };
  const io = { cwd: hello.cwd, env: hello.env } as Io;
  const cli: Cli = { io, outcome: "ok", debug: false, quiet: true };
  const target = await resolveTarget(source, { cwd: hello.cwd, env: hello.env });
  return { refusal: await ownSessionRefuses(target, launchOptions(cli, options)), debug };
}

/** One forwarded command: its frames both ways, and the Io over them. */
class ForwardedRun {
  #conn: Deno.UnixConn;
  #reader = new FrameReader();
  #buffer = new Uint8Array(16 * 1024);
  #writing = Promise.resolve();
  #gone = false;
  #exited = false;
  #stdoutClosed = false;
  #interrupted?: StopSignal;
  #handlers = new Set<(signal: StopSignal) => void>();
  #stdin?: (chunk: Uint8Array | null | Error) => void;

  constructor(conn: Deno.UnixConn, rest: Uint8Array) {
    this.#conn = conn;
    this.#reader.push(rest);
  }

  /** The caller's request, or undefined (connection closed) when it sends none in time. */
  async hello(): Promise<Hello | undefined> {
    const timer = setTimeout(() => this.close(), HELLO_MS);
    try {
      const first = await this.#next();
      if (first?.kind !== FRAME.hello) return undefined;
      const hello = JSON.parse(new TextDecoder().decode(first.payload)) as Hello;
      if (!isHello(hello)) return undefined;
      void this.#listen();
      return hello;
    } catch {
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  }

  /** The command's Io: the caller's directory, environment, TTY facts and streams. */
  io(hello: Hello): Io {
    let stdin: ReadableStream<Uint8Array> | undefined;
    const stdinStream = () => stdin ??= this.#stdinStream();
    return {
      stdout: { write: (bytes) => this.#output(FRAME.stdout, bytes) },
      stderr: { write: (bytes) => this.#output(FRAME.stderr, bytes) },
      get stdin() {
        return stdinStream();
      },
      env: hello.env,
      cwd: hello.cwd,
      tty: hello.tty,
      interrupts: (handler) => {
        this.#handlers.add(handler);
        const signal = this.#interrupted;
        if (signal !== undefined) queueMicrotask(() => handler(signal));
        return () => this.#handlers.delete(handler);
      },
    };
  }

  /** Says the command's exit status (once; not after the caller was told 130). */
  async exit(code: number): Promise<void> {
    if (this.#exited) return;
    this.#exited = true;
    await this.send(frame(FRAME.exit, Uint8Array.of(code & 0xff)));
  }

  send(bytes: Uint8Array): Promise<void> {
    const write = this.#writing.then(async () => {
      for (let at = 0; at < bytes.length;) at += await this.#conn.write(bytes.subarray(at));
    });
    this.#writing = write.catch(() => this.#leave());
    return write;
  }

  close(): void {
    try {
      this.#conn.close();
    } catch { /* already closed */ }
  }

  async #output(kind: number, bytes: Uint8Array): Promise<number> {
    if (this.#gone || this.#exited || (kind === FRAME.stdout && this.#stdoutClosed)) {
      throw new Deno.errors.BrokenPipe("the caller's stream is closed");
    }
    for (let at = 0; at < bytes.length; at += OUTPUT_FRAME_BYTES) {
      await this.send(frame(kind, bytes.subarray(at, at + OUTPUT_FRAME_BYTES)));
    }
    return bytes.length;
  }

  /**
   * The caller's stdin, read one pull at a time (nothing is read unless the
   * command reads); after an interrupt, a read fails, as the process it
   * stands for would have ended.
   */
  #stdinStream(): ReadableStream<Uint8Array> {
    return new ReadableStream<Uint8Array>({
      pull: async (controller) => {
        const chunk = this.#gone ? stopped() : await new Promise<Uint8Array | null | Error>(
          (resolve) => {
            this.#stdin = resolve;
            const most = new Uint8Array(4);
            new DataView(most.buffer).setUint32(0, 64 * 1024);
            this.send(frame(FRAME.pull, most)).catch(() => resolve(stopped()));
          },
        );
        if (chunk instanceof Error) controller.error(chunk);
        else if (chunk === null) controller.close();
        else controller.enqueue(chunk);
      },
    }, { highWaterMark: 0 });
  }

  /** The caller's frames while the command runs. */
  async #listen(): Promise<void> {
    for (;;) {
      const message = await this.#next().catch(() => undefined);
      if (message === undefined) return this.#leave();
      switch (message.kind) {
        case FRAME.stdin:
        case FRAME.stdinEnd: {
          const wake = this.#stdin;
          this.#stdin = undefined;
          wake?.(message.kind === FRAME.stdin ? message.payload : null);
          break;
        }
        case FRAME.interrupt: {
          const name = new TextDecoder().decode(message.payload);
          this.#interrupt(isSignal(name) ? name : "SIGINT");
          break;
        }
        case FRAME.stdoutClosed:
          this.#stdoutClosed = true;
          break;
      }
    }
  }

  /** An interrupt: to the command's handlers; with none yet, the caller hears 130 at once. */
  #interrupt(signal: StopSignal): void {
    if (this.#interrupted !== undefined) return;
    this.#interrupted = signal;
    if (this.#handlers.size === 0) {
      this.exit(ExitCode.interrupted).catch(() => {});
      this.#gone = true;
      this.#stdin?.(stopped());
      this.#stdin = undefined;
    }
    for (const handler of this.#handlers) handler(signal);
  }

  /** The caller went away: the command is interrupted, its output dropped, its stdin failed. */
  #leave(): void {
    if (this.#gone && this.#interrupted !== undefined) return;
    this.#gone = true;
    this.#stdin?.(stopped());
    this.#stdin = undefined;
    this.#interrupt("SIGHUP");
  }

  async #next() {
    for (;;) {
      const ready = this.#reader.next();
      if (ready) return ready;
      const read = await this.#conn.read(this.#buffer);
      if (read === null) return undefined;
      this.#reader.push(this.#buffer.subarray(0, read));
    }
  }
}

/** The error a read of stdin gets once the command was interrupted, or its caller left. */
function stopped(): Error {
  return new Deno.errors.Interrupted("the command was interrupted");
}

function isHello(value: Hello): boolean {
  const ok = typeof value === "object" && value !== null && Array.isArray(value.argv) &&
    value.argv.every((word) => typeof word === "string") && typeof value.cwd === "string" &&
    typeof value.env === "object" && value.env !== null &&
    Object.values(value.env).every((v) => typeof v === "string") &&
    typeof value.tty === "object" && value.tty !== null;
  if (ok) {
    const { stdin, stdout, stderr } = value.tty;
    value.tty = { stdin: stdin === true, stdout: stdout === true, stderr: stderr === true };
  }
  return ok;
}

function isSignal(name: string): name is StopSignal {
  return name === "SIGINT" || name === "SIGTERM" || name === "SIGHUP" || name === "SIGQUIT";
}
