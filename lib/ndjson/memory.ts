/**
 * Freeing a byte buffer at once instead of whenever the garbage collector
 * gets to it. A buffer below glibc's mmap threshold (the 64 KiB reads of a
 * child's stdout, the 1 MiB slices of a huge record) is malloc'd from an
 * arena: freed one by one as soon as it is used, the next allocation takes
 * its place; freed late, thousands of them pile up in memory that the
 * process keeps (tens of MB for a 50 MB tool result).
 *
 * @module
 */

/**
 * Frees the memory of `bytes` now (detaches its buffer) when the view spans
 * its whole buffer; anything else is left to the garbage collector. The
 * caller must own the buffer: every other view of it becomes empty.
 */
export function release(bytes: Uint8Array): void {
  const buffer = bytes.buffer;
  if (
    !(buffer instanceof ArrayBuffer) || buffer.detached || buffer.byteLength === 0 ||
    bytes.byteOffset !== 0 || bytes.byteLength !== buffer.byteLength
  ) return;
  try {
    buffer.transfer(0);
  } catch {
    // Not detachable (a WebAssembly memory, say): the collector frees it.
  }
}

/**
 * A buffer of at least `needed` bytes that holds the first `used` bytes of
 * `bytes`, which is released: twice as large as `bytes` (at least 1 KiB, at
 * most `cap` unless `needed` is more), so that bytes appended piece after
 * piece cost linear time.
 */
export function grown(
  bytes: Uint8Array,
  used: number,
  needed: number,
  cap = Infinity,
): Uint8Array<ArrayBuffer> {
  const next = new Uint8Array(Math.max(needed, Math.min(Math.max(1024, 2 * bytes.length), cap)));
  next.set(bytes.subarray(0, used));
  release(bytes);
  return next;
}
