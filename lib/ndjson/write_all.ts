/**
 * The one write loop of every output: all of a chunk's bytes to a writer
 * (stdout, a file), a reader that went away being a quiet end, and a write
 * the environment refuses (a full disk) a WriteError. Small and free of the
 * NDJSON machinery, so that `--version` and help can use it.
 *
 * @module
 */

import { environmentErrorCode, osErrorReason, WriteError } from "../errors.ts";

/** The minimal writer interface (Deno.stdout, a file, a test buffer). */
export interface ByteWriter {
  /**
   * Writes some of `bytes`; resolves to how many were written. It must not
   * keep `bytes` once the promise settles: the writer frees them then.
   */
  write(bytes: Uint8Array): Promise<number>;
}

/** Options of {@linkcode writeAll}. */
export interface WriteAllOptions {
  /** Called when the reader is gone (a closed pipe): the write then ends quietly. */
  onBrokenPipe?: () => void;
  /** The file written, named in a refused write's message; stdout when absent. */
  path?: string;
}

/**
 * Writes all bytes (to stdout, a file); calls `onBrokenPipe` and returns
 * when the reader is gone; throws `WriteError` when the environment refuses
 * the write (a full disk, a read-only file system).
 */
export async function writeAll(
  writer: ByteWriter,
  bytes: Uint8Array,
  options: WriteAllOptions = {},
): Promise<void> {
  let offset = 0;
  try {
    while (offset < bytes.length) offset += await writer.write(bytes.subarray(offset));
  } catch (error) {
    if (isBrokenPipe(error) && options.path === undefined) {
      options.onBrokenPipe?.();
      return;
    }
    throw refusedWrite(error, options.path);
  }
}

/**
 * A write the environment refused, as a `WriteError` naming the file (or
 * the output); any other error as it is.
 */
export function refusedWrite(error: unknown, path?: string): unknown {
  const code = environmentErrorCode(error);
  if (code === undefined) return error;
  if (path !== undefined) {
    return new WriteError(`Cannot write "${path}": ${osErrorReason(error)}`, {
      path,
      code,
      target: "output",
      cause: error,
    });
  }
  return new WriteError(`Cannot write the output: ${osErrorReason(error)}`, {
    code,
    target: "output",
    cause: error,
    hint: code === "ENOSPC" || code === "EDQUOT" || code === "EFBIG"
      ? "stdout goes to a full disk: free some space, or redirect it elsewhere"
      : undefined,
  });
}

/** True for the errors a closed pipe or socket raises on write. */
function isBrokenPipe(error: unknown): boolean {
  return error instanceof Deno.errors.BrokenPipe ||
    error instanceof Deno.errors.ConnectionReset ||
    (error as { code?: string })?.code === "EPIPE";
}
