/**
 * Splits a byte stream into the lines of an NDJSON document, fast and in
 * linear time. Guarantees:
 *
 * - lines end at `\n`; a trailing `\r` is removed (`\r\n` files);
 * - the last line counts even without a final newline;
 * - blank lines (empty or whitespace only) are skipped, but still counted, so
 *   `number` is always the 1-based physical line a user sees in an editor;
 * - a line may span any number of chunks and be of any length: its pieces are
 *   joined once, when the line ends (no quadratic concatenation);
 * - UTF-8 is decoded across chunk boundaries; invalid bytes become U+FFFD (as
 *   jq does) and a leading byte-order mark is dropped;
 * - lines are yielded in batches, one per chunk read, so a consumer can hand a
 *   whole batch to a costly per-call step (such as jq) while staying streaming:
 *   when the producer is slow each batch holds what has arrived so far.
 *
 * When the consumer stops early (`break`, `return`), the stream is cancelled.
 *
 * @module
 */

/** One non-blank line of the input. */
export interface NdjsonLine {
  /** The line without its `\n` / `\r\n`. */
  text: string;
  /** 1-based physical line number (blank lines count). */
  number: number;
}

/**
 * Yields the non-blank lines of `stream`, a batch per chunk read (never an
 * empty batch).
 *
 * @example
 * ```ts
 * for await (const batch of readLineBatches(Deno.stdin.readable)) {
 *   for (const line of batch) handle(line.number, line.text);
 * }
 * ```
 */
export async function* readLineBatches(
  stream: ReadableStream<Uint8Array>,
): AsyncGenerator<NdjsonLine[], void, undefined> {
  const decoder = new TextDecoder();
  const splitter = new LineSplitter();
  const reader = stream.getReader();
  let finished = false;
  try {
    while (true) {
      const { value, done } = await reader.read();
      if (done) break;
      const batch = splitter.push(decoder.decode(value, { stream: true }));
      if (batch.length > 0) yield batch;
    }
    finished = true;
    const rest = splitter.push(decoder.decode());
    const last = splitter.end();
    if (last !== undefined) rest.push(last);
    if (rest.length > 0) yield rest;
  } finally {
    if (finished) reader.releaseLock();
    else await reader.cancel().catch(() => {});
  }
}

/**
 * Yields the non-blank lines of `stream` one by one.
 *
 * @example
 * ```ts
 * for await (const { number, text } of readLines(file.readable)) console.log(number, text);
 * ```
 */
export async function* readLines(
  stream: ReadableStream<Uint8Array>,
): AsyncGenerator<NdjsonLine, void, undefined> {
  for await (const batch of readLineBatches(stream)) yield* batch;
}

/**
 * Splits already-decoded text into lines; `end()` flushes the last line.
 * Exported for callers that hold text rather than a byte stream.
 */
export class LineSplitter {
  #pieces: string[] = [];
  #number = 0;

  /** Adds `text` and returns the lines it completes. */
  push(text: string): NdjsonLine[] {
    const lines: NdjsonLine[] = [];
    let start = 0;
    while (start < text.length) {
      const newline = text.indexOf("\n", start);
      if (newline === -1) {
        this.#pieces.push(text.slice(start));
        break;
      }
      this.#emit(text.slice(start, newline), lines);
      start = newline + 1;
    }
    return lines;
  }

  /** Returns the last line when the text did not end with a newline. */
  end(): NdjsonLine | undefined {
    if (this.#pieces.length === 0) return undefined;
    const lines: NdjsonLine[] = [];
    this.#emit("", lines);
    return lines[0];
  }

  #emit(tail: string, into: NdjsonLine[]): void {
    let text = tail;
    if (this.#pieces.length > 0) {
      this.#pieces.push(tail);
      text = this.#pieces.join("");
      this.#pieces = [];
    }
    this.#number++;
    if (text.endsWith("\r")) text = text.slice(0, -1);
    if (NON_BLANK.test(text)) into.push({ text, number: this.#number });
  }
}

/** JSON whitespace is space, tab, CR and LF; anything else makes a line count. */
const NON_BLANK = /[^ \t\r\n]/;
