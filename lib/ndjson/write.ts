/**
 * jn's one NDJSON writer, for every stream of records it writes (stdout of
 * `cat`, `put`, `filter`, `mcp tools`): records or whole lines go in, what is
 * pushed during one turn of the event loop goes out in one write, one write
 * at a time, each awaited.
 *
 * Guarantees:
 * - each record is one line of exact JSON: `JSON.stringify` escapes C0
 *   controls, and `jsonSafe()` escapes the characters it leaves raw but a
 *   terminal would act on (DEL, C1, bidirectional controls, U+2028/U+2029),
 *   which parse back to the same value;
 * - text is written in the order it was pushed, whole; a huge record (a
 *   50 MB tool result) is encoded a slice at a time, so its bytes never exist
 *   all at once beside its text;
 * - output is never held back longer than `intervalMs` (default 5 ms): after
 *   a quiet spell text goes out at the end of the current event-loop turn,
 *   so an interactive reader sees each record at once, while a fast producer
 *   gets one large write per interval instead of one per record;
 * - backpressure: {@linkcode NdjsonWriter.ready} (and `write()`) resolve only
 *   once less than `highWaterBytes` is waiting, so a slow reader slows the
 *   producer down instead of growing memory;
 * - a reader that goes away (`jn cat … | head -1`, a broken pipe) turns
 *   {@linkcode NdjsonWriter.closed} true and later text is dropped, which the
 *   CLI treats as success; any other write failure (a full disk, a read-only
 *   file system) is a `WriteError`, thrown by the next `ready()`, `write()`
 *   or `flush()`.
 *
 * @module
 */

import { jsonSafe } from "../output/visible.ts";
import { largeJsonPieces } from "./large.ts";
import { release } from "./memory.ts";
import { type ByteWriter, writeAll } from "./write_all.ts";

export { type ByteWriter, writeAll };

/** Where a stream of whole NDJSON lines goes, with backpressure (the `put` runner writes to it). */
export interface LineSink {
  /** Queues text (whole lines). */
  push(text: string): void;
  /** Resolves when the producer may go on; undefined when it may go on at once. */
  ready(): Promise<void> | undefined;
  /** Writes everything queued and waits for it. */
  flush(): Promise<void>;
  /** True once the reader went away; later text is dropped. */
  readonly closed: boolean;
  /** Calls `listener` once when the reader goes away. */
  onClosed(listener: () => void): void;
}

/** Options of {@linkcode NdjsonWriter}. */
export interface NdjsonWriterOptions {
  /** Bytes (UTF-16 units, roughly) that may wait before `ready()` blocks. Default 64 KiB. */
  highWaterBytes?: number;
  /** Least time between two writes, in ms. Default 5. */
  intervalMs?: number;
}

const ENCODE_CHARS = 1 << 20;

/** Batched, awaited NDJSON output. */
export class NdjsonWriter implements LineSink {
  #writer: ByteWriter;
  #encoder = new TextEncoder();
  #parts: string[] = [];
  #size = 0;
  #high: number;
  #interval: number;
  #lastWrite = -Infinity;
  #pump?: Promise<void>;
  #timer?: ReturnType<typeof setTimeout>;
  #closed = false;
  #onClosed: (() => void)[] = [];
  #error: unknown;

  constructor(writer: ByteWriter, options: NdjsonWriterOptions = {}) {
    this.#writer = writer;
    this.#high = options.highWaterBytes ?? 64 * 1024;
    this.#interval = options.intervalMs ?? 5;
  }

  /** True once the reader went away; later text is dropped. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Calls `listener` once when the reader goes away. */
  onClosed(listener: () => void): void {
    if (this.#closed) listener();
    else this.#onClosed.push(listener);
  }

  /** Queues one record as a line of exact JSON; resolves when the producer may go on. */
  write(record: unknown): Promise<void> {
    const pieces = largeJsonPieces(record);
    if (pieces !== undefined) return this.#writeLarge(pieces);
    this.push(jsonSafe(JSON.stringify(record)) + "\n");
    return this.ready() ?? Promise.resolve();
  }

  /**
   * A record with a huge string, written piece by piece after what is
   * queued (lib/ndjson/large.ts): never one string of the whole line.
   */
  async #writeLarge(pieces: Iterable<string>): Promise<void> {
    await this.flush();
    let done!: () => void;
    this.#pump = new Promise<void>((resolve) => done = resolve);
    try {
      for (const piece of pieces) {
        if (this.#closed) break;
        await this.#writeChunked(piece);
      }
      if (!this.#closed) await this.#writeChunked("\n");
      this.#lastWrite = performance.now();
    } finally {
      this.#pump = undefined;
      done();
    }
    // Lines queued meanwhile (push() leaves them to the write under way).
    if (this.#parts.length > 0) await this.#start();
    this.#rethrow();
  }

  /** Queues text (whole lines); it is written within `intervalMs`. */
  push(text: string): void {
    if (this.#closed || text === "") return;
    this.#parts.push(text);
    this.#size += text.length;
    if (this.#timer === undefined && this.#pump === undefined) {
      const wait = Math.max(0, this.#lastWrite + this.#interval - performance.now());
      this.#timer = setTimeout(() => {
        this.#timer = undefined;
        this.#start();
      }, wait);
    }
  }

  /** Resolves when the producer may go on (little is waiting, or the reader is gone). */
  ready(): Promise<void> | undefined {
    if (this.#error !== undefined) return Promise.reject(this.#error);
    if (this.#size < this.#high || this.#closed) return undefined;
    return this.#start().then(() => this.#rethrow());
  }

  /** Writes everything queued and waits for it. */
  async flush(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    while (
      (this.#parts.length > 0 || this.#pump !== undefined) && !this.#closed &&
      this.#error === undefined
    ) await this.#start();
    this.#rethrow();
  }

  #start(): Promise<void> {
    this.#pump ??= this.#run().finally(() => this.#pump = undefined);
    return this.#pump;
  }

  async #run(): Promise<void> {
    while (this.#parts.length > 0 && !this.#closed && this.#error === undefined) {
      const text = this.#parts.length === 1 ? this.#parts[0] : this.#parts.join("");
      this.#parts = [];
      this.#size = 0;
      this.#lastWrite = performance.now();
      try {
        await this.#writeChunked(text);
      } catch (error) {
        this.#error = error;
      }
    }
    if (this.#closed) {
      this.#parts = [];
      this.#size = 0;
    }
  }

  async #writeChunked(text: string): Promise<void> {
    const onBrokenPipe = () => this.#close();
    for (let start = 0; start < text.length && !this.#closed;) {
      let end = Math.min(text.length, start + ENCODE_CHARS);
      // Never split a surrogate pair: its halves would each encode as U+FFFD.
      if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1))) end--;
      const bytes = this.#encoder.encode(text.slice(start, end));
      await writeAll(this.#writer, bytes, { onBrokenPipe });
      release(bytes);
      start = end;
    }
  }

  #close(): void {
    this.#closed = true;
    for (const listener of this.#onClosed.splice(0)) listener();
  }

  #rethrow(): void {
    if (this.#error !== undefined) throw this.#error;
  }
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
