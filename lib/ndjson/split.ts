/**
 * lib/ndjson: the one line splitter and the one NDJSON writer of every stream.
 *
 * jn's one line splitter: a byte stream cut into newline-delimited lines.
 * Every line-oriented stream jn reads goes through it — a stdio server's
 * stdout (the JSON-RPC framing), the NDJSON of `put` and `filter` (see
 * read.ts), and a server's stderr shown by `--debug`.
 *
 * Guarantees: linear time whatever the line length (the pieces of a line are
 * joined once, when it ends, never concatenated repeatedly); UTF-8 is decoded
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
   * The chunks are the splitter's to keep: their buffers are never reused
   * by the stream (node:child_process gives each read its own buffer), so
   * the part of a line they hold is kept without a copy. Default: false.
   */
  ownsChunks?: boolean;
}

/** Newline framing of a byte stream, optionally bounded. */
export class LineSplitter {
  #max: number;
  #split: boolean;
  #handlers: SplitHandlers;
  #pending: Uint8Array[] = [];
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
        this.#pending.push(piece);
        this.#pendingBytes += piece.length;
        this.#handlers.line(this.#takePending(), false);
      }
      start = newline + 1;
      newline = chunk.indexOf(10, start);
    }
    if (start === chunk.length || this.#discarding) return;
    if (this.#pendingBytes + (chunk.length - start) > this.#max) {
      if (!this.#split) return this.#overflow();
      this.#letOut(chunk.subarray(start));
      return;
    }
    // Copied unless owned: the stream may reuse the chunk's buffer.
    const rest = this.#owns ? chunk.subarray(start) : chunk.slice(start);
    this.#pending.push(rest);
    this.#pendingBytes += rest.length;
  }

  /** The stream ended: delivers the unterminated last line, if any. */
  end(): void {
    if (this.#pendingBytes > 0) this.#handlers.line(this.#takePending(), true);
  }

  #overflow(): void {
    this.#pending = [];
    this.#pendingBytes = 0;
    this.#discarding = true;
    this.#handlers.tooLarge?.();
  }

  /** Overflow `"split"`: what is held plus `rest`, let out `maxBytes` at a time. */
  #letOut(rest: Uint8Array): void {
    this.#pending.push(rest.slice());
    this.#pendingBytes += rest.length;
    const held = this.#take();
    let offset = 0;
    while (held.length - offset > this.#max) {
      this.#handlers.line(this.#decoder.decode(held.subarray(offset, offset + this.#max)), false);
      offset += this.#max;
    }
    if (offset < held.length) {
      this.#pending.push(held.slice(offset));
      this.#pendingBytes = held.length - offset;
    }
  }

  #takePending(): string {
    return this.#decoder.decode(this.#take());
  }

  #take(): Uint8Array {
    const joined = this.#pending.length === 1
      ? this.#pending[0]
      : new Uint8Array(this.#pendingBytes);
    if (this.#pending.length > 1) {
      let offset = 0;
      for (const part of this.#pending) {
        joined.set(part, offset);
        offset += part.length;
      }
    }
    this.#pending = [];
    this.#pendingBytes = 0;
    return joined;
  }
}
