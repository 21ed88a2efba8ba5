/**
 * lib/ndjson: the one line splitter and the one NDJSON writer of every stream.
 *
 * jn's one line splitter: a byte stream cut into newline-delimited lines.
 * Every line-oriented stream jn reads goes through it — a stdio server's
 * stdout (the JSON-RPC framing), the NDJSON of `put` and `filter` (see
 * read.ts), and a server's stderr shown by `--debug`.
 *
 * Guarantees: linear time whatever the line length (the pieces of a line are
 * copied once into one growing buffer, never concatenated repeatedly); UTF-8 is decoded
 * per whole line, so a character split across chunks survives and invalid
 * bytes become U+FFFD; the bytes after the last newline are delivered by
 * {@linkcode LineSplitter.end}, marked as the unterminated last line. With
 * `maxBytes`, the part of a line held in memory never exceeds it: `"drop"`
 * (the default) reports the line as too large at its first byte beyond the
 * bound and drops the rest of it up to its newline; `"split"` lets the held
 * part out in pieces of `maxBytes` (for text shown to a person).
 *
 * @module
 */

import { grown, release } from "./memory.ts";

/** What a splitter delivers. */
export interface SplitHandlers {
  /** A complete line (without its `\n`); `last` for the unterminated one at the end. */
  line(text: string, last: boolean): void;
  /** A line grew beyond `maxBytes` (overflow `"drop"`); it is dropped. */
  tooLarge?(): void;
}

/** Options of {@linkcode LineSplitter}. */
export interface SplitOptions {
  /** Bound of the part of a line held in memory, in bytes. Default: none. */
  maxBytes?: number;
  /** What happens to a line beyond the bound: dropped (default) or let out in pieces. */
  overflow?: "drop" | "split";
  /** The decoder of each line. Default: UTF-8 that drops a byte-order mark at a line's start. */
  decoder?: TextDecoder;
  /**
   * The chunks are the splitter's: nothing else reads them once pushed, and
   * each has a buffer of its own (node:child_process gives each read its
   * own). Their memory is then released as soon as they are read (their
   * buffer is detached) instead of whenever the garbage collector gets to
   * it: the 64 KiB reads of a 50 MB line are malloc'd one by one, and freed
   * late they pile up in memory the process keeps. Default: false.
   */
  ownsChunks?: boolean;
}

/** A line buffer larger than this is released once its line is decoded (a smaller one is reused). */
const KEEP_BYTES = 64 * 1024;

/** Newline framing of a byte stream, optionally bounded. */
export class LineSplitter {
  #max: number;
  #split: boolean;
  #handlers: SplitHandlers;
  /**
   * The part of a line that has no newline yet, copied into one contiguous
   * buffer (grown by doubling): at the line's end it is decoded in one go,
   * and a large buffer is released before the line is handed on, so the
   * bytes and the text of a huge line are not held beside its parse.
   */
  #pending = new Uint8Array(0);
  #pendingBytes = 0;
  #discarding = false;
  #decoder: TextDecoder;
  #owns: boolean;

  constructor(handlers: SplitHandlers, options: SplitOptions = {}) {
    this.#handlers = handlers;
    this.#max = options.maxBytes ?? Infinity;
    this.#split = options.overflow === "split";
    this.#decoder = options.decoder ?? new TextDecoder();
    this.#owns = options.ownsChunks === true;
  }

  /** Takes the next chunk of the stream. */
  push(chunk: Uint8Array): void {
    let start = 0;
    let newline = chunk.indexOf(10);
    while (newline !== -1) {
      const piece = chunk.subarray(start, newline);
      if (this.#discarding) {
        // The end of an oversized line: dropped with it.
        this.#discarding = false;
      } else if (this.#pendingBytes + piece.length > this.#max && !this.#split) {
        this.#overflow();
        this.#discarding = false;
      } else if (this.#pendingBytes === 0) {
        this.#handlers.line(this.#decoder.decode(piece), false);
      } else {
        this.#append(piece);
        this.#handlers.line(this.#takeText(), false);
      }
      start = newline + 1;
      newline = chunk.indexOf(10, start);
    }
    if (start < chunk.length && !this.#discarding) {
      const rest = chunk.subarray(start);
      if (this.#pendingBytes + rest.length <= this.#max) this.#append(rest);
      else if (this.#split) this.#letOut(rest);
      else this.#overflow();
    }
    if (this.#owns) release(chunk);
  }

  /**
   * The line under way is over a bound the caller keeps: it is reported too
   * large (unless it already was) and dropped up to its newline.
   */
  dropLine(): void {
    if (!this.#discarding) this.#overflow();
  }

  /** The stream ended: delivers the unterminated last line, if any. */
  end(): void {
    if (this.#pendingBytes > 0) this.#handlers.line(this.#takeText(), true);
  }

  #overflow(): void {
    this.#clear();
    this.#discarding = true;
    this.#handlers.tooLarge?.();
  }

  /** Overflow `"split"`: what is held plus `rest`, let out `maxBytes` at a time. */
  #letOut(rest: Uint8Array): void {
    this.#append(rest);
    const held = this.#pending;
    let offset = 0;
    while (this.#pendingBytes - offset > this.#max) {
      this.#handlers.line(this.#decoder.decode(held.subarray(offset, offset + this.#max)), false);
      offset += this.#max;
    }
    held.copyWithin(0, offset, this.#pendingBytes);
    this.#pendingBytes -= offset;
  }

  /** Copies `bytes` after what is held, growing the buffer by doubling (linear time). */
  #append(bytes: Uint8Array): void {
    const needed = this.#pendingBytes + bytes.length;
    if (needed > this.#pending.length) {
      this.#pending = grown(this.#pending, this.#pendingBytes, needed, this.#max);
    }
    this.#pending.set(bytes, this.#pendingBytes);
    this.#pendingBytes = needed;
  }

  /** The held line, decoded; a large buffer is released before the text is handed on. */
  #takeText(): string {
    const text = this.#decoder.decode(this.#pending.subarray(0, this.#pendingBytes));
    this.#pendingBytes = 0;
    if (this.#pending.length > KEEP_BYTES) this.#clear();
    return text;
  }

  #clear(): void {
    release(this.#pending);
    this.#pending = new Uint8Array(0);
    this.#pendingBytes = 0;
  }
}
