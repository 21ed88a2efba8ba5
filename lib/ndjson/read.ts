/**
 * The lines of an NDJSON document read from a byte stream (stdin of `put`
 * and `filter`), through the one splitter (split.ts). Guarantees:
 *
 * - lines end at `\n`; a trailing `\r` is removed (`\r\n` files);
 * - the last line counts even without a final newline;
 * - blank lines (empty or whitespace only) are skipped, but still counted, so
 *   `number` is always the 1-based physical line a user sees in an editor;
 * - a line may span any number of chunks and be of any length, in linear time;
 * - UTF-8 is decoded across chunk boundaries; invalid bytes become U+FFFD (as
 *   jq does) and a leading byte-order mark is dropped;
 * - lines are yielded in batches, one per chunk read (never an empty batch),
 *   so a consumer can hand a whole batch to a costly per-call step (such as
 *   jq) while staying streaming: when the producer is slow each batch holds
 *   what has arrived so far;
 * - aborting `signal` ends the iteration promptly even while a read is
 *   waiting (the stream is cancelled); a line that was incomplete at that
 *   moment may still be yielded, so consumers check the signal before acting
 *   on a line.
 *
 * When the consumer stops early (`break`, `return`), the stream is cancelled.
 *
 * @module
 */

import { LineSplitter } from "./split.ts";

/** One non-blank line of the input. */
export interface NdjsonLine {
  /** The line without its `\n` / `\r\n`. */
  text: string;
  /** 1-based physical line number (blank lines count). */
  number: number;
}

/** Options of {@linkcode readLineBatches}. */
export interface ReadLinesOptions {
  /** Stops reading (the pending read is cancelled). */
  signal?: AbortSignal;
}

/**
 * Yields the non-blank lines of `stream`, a batch per chunk read.
 *
 * @example
 * ```ts
 * for await (const batch of readLineBatches(Deno.stdin.readable, { signal })) {
 *   for (const line of batch) handle(line.number, line.text);
 * }
 * ```
 */
export function readLineBatches(
  stream: ReadableStream<Uint8Array>,
  options: ReadLinesOptions = {},
): AsyncGenerator<NdjsonLine[], void, undefined> {
  const { signal } = options;
  return batches(signal === undefined ? stream : abortable(stream, signal));
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
  options: ReadLinesOptions = {},
): AsyncGenerator<NdjsonLine, void, undefined> {
  for await (const batch of readLineBatches(stream, options)) yield* batch;
}

async function* batches(
  stream: ReadableStream<Uint8Array>,
): AsyncGenerator<NdjsonLine[], void, undefined> {
  let batch: NdjsonLine[] = [];
  let number = 0;
  const splitter = new LineSplitter({
    line: (raw) => {
      number++;
      let text = number === 1 && raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
      if (text.endsWith("\r")) text = text.slice(0, -1);
      if (NON_BLANK.test(text)) batch.push({ text, number });
    },
  }, { decoder: new TextDecoder("utf-8", { ignoreBOM: true }) });
  const take = () => {
    const lines = batch;
    batch = [];
    return lines;
  };
  const reader = stream.getReader();
  let finished = false;
  try {
    while (true) {
      const { value, done } = await reader.read();
      if (done) break;
      splitter.push(value);
      if (batch.length > 0) yield take();
    }
    finished = true;
    splitter.end();
    if (batch.length > 0) yield take();
  } finally {
    if (finished) reader.releaseLock();
    else await reader.cancel().catch(() => {});
  }
}

/** JSON whitespace is space, tab, CR and LF; anything else makes a line count. */
const NON_BLANK = /[^ \t\r\n]/;

/** A view of `stream` that ends (as if at EOF) when `signal` aborts. */
function abortable(
  stream: ReadableStream<Uint8Array>,
  signal: AbortSignal,
): ReadableStream<Uint8Array> {
  const reader = stream.getReader();
  const stop = () => void reader.cancel(signal.reason).catch(() => {});
  if (signal.aborted) stop();
  else signal.addEventListener("abort", stop, { once: true });
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done || signal.aborted) {
        signal.removeEventListener("abort", stop);
        controller.close();
      } else {
        controller.enqueue(value);
      }
    },
    cancel(reason) {
      signal.removeEventListener("abort", stop);
      return reader.cancel(reason);
    },
  }, { highWaterMark: 0 });
}
