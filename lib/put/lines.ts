/**
 * The input lines of `put`: lib/filter/ndjson_lines.ts's batches (blank
 * lines skipped but counted, CRLF, UTF-8 across chunks, linear time), made
 * abortable. Aborting `signal` ends the iteration promptly even while a read
 * of stdin is waiting (the underlying stream is cancelled); a line that was
 * incomplete at that moment may still be yielded, so consumers check the
 * signal before acting on a line.
 *
 * @module
 */

import { type NdjsonLine, readLineBatches as splitBatches } from "../filter/ndjson_lines.ts";

export type { NdjsonLine } from "../filter/ndjson_lines.ts";

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
  return splitBatches(signal === undefined ? stream : abortable(stream, signal));
}

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
