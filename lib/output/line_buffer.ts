/**
 * Turns a stream of text chunks (a server's stderr, read as the pipe delivers
 * it) into whole lines, so that anything done per line — redacting a secret,
 * making control characters visible, prefixing the server's name — sees a
 * line whole even when the server wrote it in pieces, or the pipe split it.
 *
 * Guarantees: lines come out in order, without their `\n`; a partial line is
 * held until its newline arrives or {@linkcode LineBuffer.end} is called; a
 * line longer than `maxChars` (default 64 KiB) is let out in pieces of that
 * size, so a server that never writes a newline cannot grow jn's memory.
 *
 * @module
 */

/** Splits chunks into whole lines. */
export class LineBuffer {
  #pending = "";
  #max: number;

  constructor(options: { maxChars?: number } = {}) {
    this.#max = options.maxChars ?? 64 * 1024;
  }

  /** Adds a chunk; returns the lines it completes (possibly none). */
  push(chunk: string): string[] {
    const text = this.#pending + chunk;
    const lines = text.split("\n");
    this.#pending = lines.pop() ?? "";
    while (this.#pending.length > this.#max) {
      lines.push(this.#pending.slice(0, this.#max));
      this.#pending = this.#pending.slice(this.#max);
    }
    return lines;
  }

  /** The last, unterminated line, if any; the buffer is empty afterwards. */
  end(): string | undefined {
    const rest = this.#pending;
    this.#pending = "";
    return rest === "" ? undefined : rest;
  }
}
