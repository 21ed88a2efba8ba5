/**
 * A text writer for streams of records: what is pushed during one turn of
 * the event loop goes out in one write, one write at a time, each awaited.
 *
 * Guarantees:
 * - text is written in the order it was pushed, whole;
 * - output is never held back longer than `intervalMs` (default 5 ms): after
 *   a quiet spell text goes out at the end of the current event-loop turn,
 *   so an interactive reader sees each record at once, while a fast producer
 *   gets one large write per interval instead of one per record;
 * - backpressure: {@linkcode LineWriter.ready} resolves only once less than
 *   `highWaterBytes` is waiting, so a slow reader slows the producer down
 *   instead of growing memory;
 * - a reader that goes away (broken pipe) turns {@linkcode LineWriter.closed}
 *   true and later text is dropped; any other write error is thrown by the
 *   next `ready()` or `flush()`.
 *
 * @module
 */

import { type ByteWriter, writeAll } from "../output/ndjson.ts";

/** Options of {@linkcode LineWriter}. */
export interface LineWriterOptions {
  /** Bytes (UTF-16 units, roughly) that may wait before `ready()` blocks. Default 64 KiB. */
  highWaterBytes?: number;
  /** Least time between two writes, in ms. Default 5. */
  intervalMs?: number;
}

/** Batched, awaited output. */
export class LineWriter {
  #writer: ByteWriter;
  #encoder = new TextEncoder();
  #parts: string[] = [];
  #size = 0;
  #high: number;
  #interval: number;
  #lastWrite = -Infinity;
  #pump?: Promise<void>;
  #scheduled = false;
  #closed = false;
  #onClosed: (() => void)[] = [];
  #error: unknown;

  constructor(writer: ByteWriter, options: LineWriterOptions = {}) {
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

  /** Queues text; it is written within `intervalMs`. */
  push(text: string): void {
    if (this.#closed || text === "") return;
    this.#parts.push(text);
    this.#size += text.length;
    if (!this.#scheduled && this.#pump === undefined) {
      this.#scheduled = true;
      const wait = Math.max(0, this.#lastWrite + this.#interval - performance.now());
      setTimeout(() => {
        this.#scheduled = false;
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
        await writeAll(this.#writer, this.#encoder.encode(text), () => this.#close());
      } catch (error) {
        this.#error = error;
      }
    }
    if (this.#closed) {
      this.#parts = [];
      this.#size = 0;
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
