/**
 * Splits a byte stream into newline-delimited lines, as a stdio server's
 * stdout is framed.
 *
 * Guarantees: linear time whatever the line length (chunks are joined once
 * per line, never concatenated repeatedly); a line never exceeds `maxBytes`:
 * the first byte beyond it reports the line as too large, and the rest of it
 * is dropped up to its newline, after which lines are delivered again; the
 * bytes after the last newline are delivered by {@linkcode LineFramer.end},
 * marked as the unterminated last line.
 *
 * @module
 */

/** What a framer delivers. */
export interface FramerHandlers {
  /** A complete line (without its `\n`); `last` for the unterminated one at the end. */
  line(text: string, last: boolean): void;
  /** A line grew beyond the bound; it is dropped. */
  tooLarge(): void;
}

/** Newline framing with a bound on the length of a line. */
export class LineFramer {
  #max: number;
  #handlers: FramerHandlers;
  #pending: Uint8Array[] = [];
  #pendingBytes = 0;
  #discarding = false;
  #decoder = new TextDecoder();

  constructor(maxBytes: number, handlers: FramerHandlers) {
    this.#max = maxBytes;
    this.#handlers = handlers;
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
      } else if (this.#pendingBytes + piece.length > this.#max) {
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
    if (this.#pendingBytes + (chunk.length - start) > this.#max) return this.#overflow();
    // Copy: the stream may reuse the chunk's buffer.
    const rest = chunk.slice(start);
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
    this.#handlers.tooLarge();
  }

  #takePending(): string {
    const joined = new Uint8Array(this.#pendingBytes);
    let offset = 0;
    for (const part of this.#pending) {
      joined.set(part, offset);
      offset += part.length;
    }
    this.#pending = [];
    this.#pendingBytes = 0;
    return this.#decoder.decode(joined);
  }
}
