/**
 * An MCP stdio transport that owns its server's whole process tree.
 *
 * The server is started in a process group of its own (`detached`), with a
 * marker in its environment, so that teardown can find and signal every
 * process it started (see process_tree.ts): the tree is recorded, stdin is
 * closed, the server gets SIGTERM then SIGKILL if it lingers, and what it
 * left behind is ended too. Should jn end without that teardown (SIGKILL),
 * a reaper ends the server's group (reaper.ts). Messages are newline-delimited JSON of any size
 * up to `maxMessageBytes` (no quadratic concatenation; a long string is
 * decoded while it arrives, lib/ndjson/long_strings.ts); a larger one is a
 * protocol error. Non-JSON text lines on stdout are reported and skipped; a
 * line that starts like JSON but does not parse is a protocol error, except
 * the unterminated last one of a server that died mid-message (its exit is
 * the error then). A launch's `pipedArgs` are written to the child's
 * descriptor 3 (NUL-ended) and that pipe closed, so they never show in its argv.
 *
 * Why this module is over 300 lines: start, framing, early exit, send
 * batching and the ordered teardown all act on one child's state (its pid,
 * its tree, what is in flight); split apart, that one lifecycle would be
 * spread over modules that must change together.
 *
 * @module
 */

import { type ChildProcess, spawn } from "node:child_process";
import process from "node:process";
import type { Writable } from "node:stream";
import { setImmediate } from "node:timers";
import type { Transport } from "@modelcontextprotocol/client";
import {
  describeRefusal,
  isPermissionRefusal,
  LaunchError,
  ProtocolError,
  SandboxError,
} from "../errors.ts";
import { installHint } from "../launch/registry.ts";
import { describeArgv, type StdioLaunch } from "../launch/spec.ts";
import { LineSplitter } from "../ndjson/split.ts";
import { LongStrings } from "../ndjson/long_strings.ts";
import { ProcessTree, TREE_MARKER_VAR } from "./process_tree.ts";
import { type Reaper, startReaper } from "./reaper.ts";

type Message = Parameters<Transport["send"]>[0];

/** Options of {@linkcode ProcessTransport}. */
export interface ProcessTransportOptions {
  /** The complete environment of the child. */
  env: Record<string, string>;
  /** Called with every chunk the server writes to stderr. */
  onStderr?: (text: string) => void;
  /** Called once per non-JSON line the server writes to stdout. */
  onNoise?: (line: string) => void;
  /** How long to wait after closing stdin before SIGTERM (ms). */
  graceMs?: number;
  /** How long to wait after SIGTERM before SIGKILL (ms). */
  killAfterMs?: number;
  /** The largest message accepted, in bytes (default {@linkcode MAX_MESSAGE_BYTES}). */
  maxMessageBytes?: number;
}

const STDERR_TAIL_BYTES = 16 * 1024;
/** The most jn keeps waiting for a server that does not read its stdin. */
const MAX_OUTBOX_BYTES = 16 * 1024 * 1024;

/**
 * The default bound of one message: 256 MiB. Well above any real result
 * (a 50 MB one passes), and below V8's largest string (~512 MiB), which a
 * longer line would crash jn on.
 */
export const MAX_MESSAGE_BYTES = 256 * 1024 * 1024;

/** A stdio transport over a child process in its own process group. */
export class ProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport["onmessage"];

  #launch: StdioLaunch;
  #options: ProcessTransportOptions;
  #child?: ChildProcess;
  #tree?: ProcessTree;
  /** Ends the server's group should jn end without its teardown (reaper.ts). */
  #reaper?: Reaper;
  #exited?: Promise<void>;
  #exit?: { code: number | null; signal: string | null };
  #stderrTail = "";
  /** Whether the tail lost its beginning (then its first, partial line is not shown). */
  #stderrCut = false;
  #stderrDecoder = new TextDecoder();
  #spawning?: Promise<void>;
  #started = false;
  #released = false;
  #early: (() => void)[] = [];
  #outbox: string[] = [];
  /** Who waits for the pipe to drain (set while a write waits for `drain`). */
  #draining?: (() => void)[];
  #lingerTimer?: ReturnType<typeof setTimeout>;
  #flushing?: Promise<void>;
  #framer: LineSplitter;
  /** Takes long strings out of the output while it arrives (lib/ndjson/long_strings.ts). */
  #strings: LongStrings;
  #closing?: Promise<void>;
  #closed = false;
  #received = 0;
  #firstNoise?: string;

  constructor(launch: StdioLaunch, options: ProcessTransportOptions) {
    this.#launch = launch;
    this.#options = options;
    const max = options.maxMessageBytes ?? MAX_MESSAGE_BYTES;
    this.#framer = new LineSplitter({
      line: (text, last) => this.#handleLine(text, { last }),
      tooLarge: () => this.#tooLarge(max),
    }, { maxBytes: max });
    this.#strings = new LongStrings((bytes) => this.#framer.push(bytes), {
      maxBytes: max,
      tooLarge: () => this.#framer.dropLine(),
    });
  }

  /** The server's pid (the SDK recognises stdio transports by `pid` and `stderr`). */
  get pid(): number | null {
    return this.#child?.pid ?? null;
  }

  /** Stderr is consumed by the transport itself; see `onStderr`. */
  get stderr(): null {
    return null;
  }

  /**
   * The last lines the server wrote to stderr. When the bound cut the text,
   * it starts at the first whole line after the cut: a line cut mid-way
   * could start inside a secret that redaction would then no longer know.
   */
  stderrTail(): string {
    if (!this.#stderrCut) return this.#stderrTail.trimEnd();
    const newline = this.#stderrTail.indexOf("\n");
    return newline < 0 ? "" : this.#stderrTail.slice(newline + 1).trimEnd();
  }

  /** How many JSON-RPC messages the server sent. */
  get received(): number {
    return this.#received;
  }

  /** The first non-JSON line the server wrote to stdout, if any. */
  get firstNoise(): string | undefined {
    return this.#firstNoise;
  }

  /** How the process ended, once it has. */
  exitStatus(): { code: number | null; signal: string | null } | undefined {
    return this.#exit;
  }

  /**
   * Starts the server now, before the SDK calls `start()`, so that its
   * start-up overlaps whatever the caller does meanwhile (loading the SDK).
   * What the server says before `start()` is delivered right after it.
   */
  prestart(): void {
    if (this.#spawning) return;
    this.#spawning = this.#spawn();
    this.#spawning.catch(() => {/* start() reports it */});
  }

  start(): Promise<void> {
    if (this.#started) return Promise.reject(new Error("ProcessTransport already started"));
    this.#started = true;
    this.#spawning ??= this.#spawn();
    return this.#spawning.then(() => {
      this.#released = true;
      for (const event of this.#early.splice(0)) event();
    });
  }

  /** Delivers an event to the SDK's handlers, or keeps it until `start()`. */
  #emit(event: () => void): void {
    if (this.#released) event();
    else this.#early.push(event);
  }

  #spawn(): Promise<void> {
    return new Promise((resolve, reject) => {
      let child: ChildProcess;
      const marker = crypto.randomUUID();
      try {
        child = spawn(this.#launch.command, this.#launch.args, {
          env: { ...this.#options.env, [TREE_MARKER_VAR]: marker },
          cwd: this.#launch.cwd,
          stdio: this.#launch.pipedArgs
            ? ["pipe", "pipe", "pipe", "pipe"]
            : ["pipe", "pipe", "pipe"],
          detached: process.platform !== "win32",
          shell: false,
          windowsHide: true,
        });
      } catch (error) {
        reject(this.#launchError(error));
        return;
      }
      this.#child = child;
      sendPipedArgs(child, this.#launch.pipedArgs);
      // Registered at once, so that even a second Ctrl-C during start-up finds it.
      if (child.pid !== undefined) this.#tree = new ProcessTree(child.pid, marker);
      let spawnFailed = () => {};
      this.#exited = new Promise((done) => {
        spawnFailed = done;
        child.once("exit", (code, signal) => {
          this.#exit = { code, signal };
          this.#tree?.exited();
          done();
        });
        // A process that never started emits "error" and "close" but no "exit".
        child.once("close", () => done());
      });
      child.once("error", (error) => {
        if (child.pid === undefined) {
          // No process, so no "exit" event: close() must not wait for one.
          spawnFailed();
          reject(this.#launchError(error));
        } else this.#emit(() => this.onerror?.(error));
      });
      child.once("spawn", () => {
        this.#tree ??= new ProcessTree(child.pid!, marker);
        // Started while the server starts up (jn waits for its handshake anyway).
        setImmediate(() => {
          if (!this.#closing && !this.#exit) this.#reaper ??= startReaper(child.pid!);
        });
        if (this.#exit) this.#tree.exited();
        resolve();
      });
      child.stdout!.on("data", (chunk: Uint8Array) => this.#strings.push(chunk));
      child.stderr!.on("data", (chunk: Uint8Array) => this.#onStderr(chunk));
      child.stdin!.on("error", () => {/* EPIPE: the exit path reports it */});
      child.once("close", () => {
        clearTimeout(this.#lingerTimer);
        this.#strings.end();
        this.#framer.end();
        this.#finish();
      });
      child.once("exit", () => {
        // A grandchild that inherited the server's stdout or stderr keeps the
        // pipes open, so "close" may never come: once the server itself has
        // exited, give its last output a moment to arrive, then end. (The
        // timer is cleared when the pipes do close: a pending timer would keep
        // a process that embeds jn's session alive for its 100 ms.)
        this.#lingerTimer = setTimeout(() => {
          this.#strings.end();
          this.#framer.end();
          this.#finish();
        }, 100);
      });
    });
  }

  send(message: Message): Promise<void> {
    const stdin = this.#child?.stdin;
    if (!stdin || stdin.destroyed || this.#closing) {
      return Promise.reject(new Error("The server's stdin is closed"));
    }
    // Messages sent in the same turn of the event loop go out in one write: a
    // write to a child's pipe costs ~35 µs under Deno's node:child_process,
    // whatever its size (a third of `jn put`'s time when written one by one).
    this.#outbox.push(JSON.stringify(message) + "\n");
    this.#flushing ??= new Promise((resolve) =>
      setImmediate(() => {
        this.#flushing = undefined;
        this.#flushOutbox(resolve);
      })
    );
    return this.#flushing;
  }

  /**
   * Writes the outbox. While the pipe is full, one `drain` listener waits and
   * later messages gather in the outbox (a server flooding jn with requests
   * while not reading their answers adds no listener per message); past
   * {@linkcode MAX_OUTBOX_BYTES} waiting, the server is broken: an error.
   */
  #flushOutbox(done: () => void = () => {}, options: { now?: boolean } = {}): void {
    const stdin = this.#child?.stdin;
    if (this.#draining && !options.now) {
      this.#draining.push(done);
      if (this.#outboxBytes() > MAX_OUTBOX_BYTES) this.#overflow();
      return;
    }
    const text = this.#outbox.join("");
    this.#outbox = [];
    if (!stdin || stdin.destroyed || text === "") return done();
    if (stdin.write(text) || options.now) return done();
    this.#draining = [done];
    stdin.once("drain", () => {
      const waiting = this.#draining ?? [];
      this.#draining = undefined;
      if (this.#outbox.length > 0) {
        this.#flushOutbox(() => waiting.forEach((resolve) => resolve()));
      } else waiting.forEach((resolve) => resolve());
    });
  }

  #outboxBytes(): number {
    let bytes = 0;
    for (const text of this.#outbox) bytes += text.length;
    return bytes;
  }

  #overflow(): void {
    this.#outbox = [];
    const error = new ProtocolError(
      `The server does not read what jn sends (over ${
        formatBytes(MAX_OUTBOX_BYTES)
      } waiting for it)`,
      { hint: "the server floods jn with requests without reading the answers; report it" },
    );
    this.#emit(() => this.onerror?.(error));
  }

  /** Closes stdin, then ends the whole process group: SIGTERM, then SIGKILL. Idempotent. */
  close(): Promise<void> {
    this.#closing ??= this.#teardown();
    return this.#closing;
  }

  async #teardown(): Promise<void> {
    const child = this.#child;
    const tree = this.#tree;
    if (child && tree) {
      // While the server runs its descendants can be found from it; once it
      // exits they are reparented (a setsid'd one would then be lost).
      if (!this.#exit) await tree.snapshot();
      try {
        this.#flushOutbox(undefined, { now: true });
        child.stdin?.end();
      } catch { /* already gone */ }
      const graceMs = this.#options.graceMs ?? 500;
      const killAfterMs = this.#options.killAfterMs ?? 1500;
      if (!(await this.#waitExit(graceMs))) {
        await tree.signal("SIGTERM");
        if (!(await this.#waitExit(killAfterMs))) await tree.signal("SIGKILL");
        await this.#waitExit(killAfterMs);
      }
      await tree.reap(killAfterMs);
      tree.release();
      this.#reaper?.stop();
      child.stdout?.destroy();
      child.stderr?.destroy();
    }
    this.#finish();
    clearTimeout(this.#lingerTimer);
  }

  async #waitExit(ms: number): Promise<boolean> {
    if (this.#exit) return true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), ms);
    });
    const exited = this.#exited!.then(() => true as const);
    const result = await Promise.race([exited, timeout]);
    clearTimeout(timer);
    return result;
  }

  #finish(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#emit(() => this.onclose?.());
  }

  #onStderr(chunk: Uint8Array): void {
    // One decoder for the stream: a character split between two chunks stays whole.
    const text = this.#stderrDecoder.decode(chunk, { stream: true });
    const joined = this.#stderrTail + text;
    if (joined.length > STDERR_TAIL_BYTES) this.#stderrCut = true;
    this.#stderrTail = joined.slice(-STDERR_TAIL_BYTES);
    this.#options.onStderr?.(text);
  }

  /** A message longer than the bound (the framer drops it): a protocol error. */
  #tooLarge(max: number): void {
    const error = new ProtocolError(
      `The server sent a message larger than ${formatBytes(max)} (jn's bound of one message)`,
      { hint: "the server sent a malformed or absurdly large message; report it to its authors" },
    );
    this.#emit(() => this.onerror?.(error));
  }

  #handleLine(raw: string, options: { last?: boolean } = {}): void {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (line.trim() === "") return;
    const first = line.trimStart()[0];
    if (first !== "{" && first !== "[") {
      this.#firstNoise ??= line;
      this.#options.onNoise?.(line);
      return;
    }
    let message: unknown;
    try {
      message = this.#strings.parse(line);
    } catch (error) {
      if (options.last) {
        // Not a protocol error: the server died mid-message, and its exit says so.
        const cut = new Error(`The server's output ended mid-message: ${preview(line)}`);
        this.#emit(() => this.onerror?.(cut));
        return;
      }
      const malformed = new ProtocolError(
        `The server wrote malformed JSON to stdout: ${preview(line)}`,
        { cause: error },
      );
      this.#emit(() => this.onerror?.(malformed));
      return;
    }
    if (!isJsonRpc(message)) {
      const invalid = new ProtocolError(
        `The server wrote a message that is not JSON-RPC 2.0: ${preview(line)}`,
      );
      this.#emit(() => this.onerror?.(invalid));
      return;
    }
    this.#received++;
    const items = Array.isArray(message) ? message : [message];
    this.#emit(() => {
      for (const item of items) this.onmessage?.(item as Message);
    });
  }

  #launchError(error: unknown): LaunchError | SandboxError {
    const code = (error as { code?: string }).code;
    const what = describeArgv(this.#launch);
    if (isPermissionRefusal(error)) {
      const flag = describeRefusal(error)?.flag ?? `--allow-run=${this.#launch.command}`;
      return new SandboxError(
        `Cannot start server "${what}": jn was started without ${flag}`,
        { cause: error, hint: `add ${flag} to jn's permissions (see docs/install.md)` },
      );
    }
    if (code === "ENOENT") {
      return new LaunchError(
        `Cannot start server "${what}": ${this.#launch.command} not found on PATH`,
        { command: what, cause: error, hint: installHint(this.#launch.command) },
      );
    }
    if (code === "EACCES") {
      return new LaunchError(
        `Cannot start server "${what}": ${this.#launch.command} is not executable`,
        { command: what, cause: error },
      );
    }
    return new LaunchError(`Cannot start server "${what}": ${(error as Error).message}`, {
      command: what,
      cause: error,
    });
  }
}

/** A message or a batch of them (one level: an array in a batch is not a message). */
function isJsonRpc(message: unknown): boolean {
  if (Array.isArray(message)) return message.length > 0 && message.every(isJsonRpcObject);
  return isJsonRpcObject(message);
}

function isJsonRpcObject(message: unknown): boolean {
  return typeof message === "object" && message !== null && !Array.isArray(message) &&
    (message as { jsonrpc?: unknown }).jsonrpc === "2.0";
}

function preview(line: string): string {
  const short = line.length > 120 ? `${line.slice(0, 120)}…` : line;
  return JSON.stringify(short);
}

function formatBytes(bytes: number): string {
  const mib = bytes / (1024 * 1024);
  return Number.isInteger(mib) ? `${mib} MiB` : `${bytes} bytes`;
}

/** Writes `words` to the child's descriptor 3, each ended by a NUL byte, and closes it. */
function sendPipedArgs(child: ChildProcess, words: readonly string[] | undefined): void {
  const pipe = child.stdio[3] as Writable | null | undefined;
  if (!words || !pipe) return;
  // A program that ended before reading them: its exit is the error reported.
  pipe.on("error", () => {});
  pipe.end(words.map((word) => `${word}\0`).join(""));
}
