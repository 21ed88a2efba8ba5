/**
 * Writes records as NDJSON: one compact JSON value per line, buffered into
 * large writes, awaiting the writer so a slow reader slows jn down instead of
 * growing memory. When the reader goes away (`jn cat … | head -1`) writing
 * stops quietly: {@linkcode NdjsonWriter.closed} turns true and further
 * records are dropped, which the CLI treats as success. Any other write
 * failure (a full disk, a read-only file system) is a `WriteError`.
 *
 * Each line is exact JSON: `JSON.stringify` escapes C0 controls, and
 * `jsonSafe()` escapes the characters it leaves raw but a terminal would act
 * on (DEL, C1, bidirectional controls, U+2028/U+2029), which parse back to
 * the same value.
 *
 * @module
 */

import { environmentErrorCode, osErrorReason, WriteError } from "../errors.ts";
import { jsonSafe } from "./visible.ts";

/** The minimal writer interface (Deno.stdout, a file, a test buffer). */
export interface ByteWriter {
  write(bytes: Uint8Array): Promise<number>;
}

const FLUSH_BYTES = 64 * 1024;

/** Buffered NDJSON output. */
export class NdjsonWriter {
  #writer: ByteWriter;
  #encoder = new TextEncoder();
  #parts: string[] = [];
  #size = 0;
  #closed = false;
  /** How many records were written (or buffered). */
  count = 0;

  constructor(writer: ByteWriter) {
    this.#writer = writer;
  }

  /** True once the reader went away; later records are dropped. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Queues one record; flushes when the buffer is large. */
  async write(record: unknown): Promise<void> {
    if (this.#closed) return;
    const line = jsonSafe(JSON.stringify(record)) + "\n";
    this.count++;
    this.#parts.push(line);
    this.#size += line.length;
    if (this.#size >= FLUSH_BYTES) await this.flush();
  }

  /** Writes whatever is buffered. */
  async flush(): Promise<void> {
    if (this.#parts.length === 0 || this.#closed) return;
    const text = this.#parts.length === 1 ? this.#parts[0] : this.#parts.join("");
    this.#parts = [];
    this.#size = 0;
    const onBrokenPipe = () => this.#closed = true;
    // A huge record (a 50 MB tool result) is encoded a slice at a time, so
    // its bytes never exist all at once beside its text.
    for (let start = 0; start < text.length && !this.#closed;) {
      let end = Math.min(text.length, start + ENCODE_CHARS);
      // Never split a surrogate pair: its halves would each encode as U+FFFD.
      if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1))) end--;
      await writeAll(this.#writer, this.#encoder.encode(text.slice(start, end)), onBrokenPipe);
      start = end;
    }
  }
}

const ENCODE_CHARS = 1 << 20;

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/**
 * Writes all bytes (to stdout, in the CLI); calls `onBrokenPipe` and returns
 * when the reader is gone; throws `WriteError` when the environment refuses
 * the write (a full disk, a read-only file system).
 */
export async function writeAll(
  writer: ByteWriter,
  bytes: Uint8Array,
  onBrokenPipe: () => void,
): Promise<void> {
  let offset = 0;
  try {
    while (offset < bytes.length) offset += await writer.write(bytes.subarray(offset));
  } catch (error) {
    if (isBrokenPipe(error)) {
      onBrokenPipe();
      return;
    }
    const code = environmentErrorCode(error);
    if (code === undefined) throw error;
    throw new WriteError(`Cannot write the output: ${osErrorReason(error)}`, {
      code,
      target: "output",
      cause: error,
      hint: code === "ENOSPC" || code === "EDQUOT" || code === "EFBIG"
        ? "stdout goes to a full disk: free some space, or redirect it elsewhere"
        : undefined,
    });
  }
}

/** True for the errors a closed pipe or socket raises on write. */
export function isBrokenPipe(error: unknown): boolean {
  return error instanceof Deno.errors.BrokenPipe ||
    error instanceof Deno.errors.ConnectionReset ||
    (error as { code?: string })?.code === "EPIPE";
}
