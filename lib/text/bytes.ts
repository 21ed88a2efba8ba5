/**
 * Bytes gathered in pieces: joined once, and a stream read whole up to a
 * bound. Every reader of jn that collects a stdin, a child's output or a
 * file's chunks before decoding them joins them here.
 *
 * Guarantees: {@linkcode readStreamBounded} stops at the first chunk past
 * its bound and says so (`undefined`), without holding more than the bound
 * and that chunk.
 *
 * @module
 */

/** The pieces, in order, as one array. */
export function concatBytes(chunks: readonly Uint8Array[]): Uint8Array {
  let total = 0;
  for (const chunk of chunks) total += chunk.length;
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return bytes;
}

/**
 * All of `stream`, or undefined as soon as it holds more than `maxBytes`
 * (the caller words the refusal).
 */
export async function readStreamBounded(
  stream: AsyncIterable<Uint8Array>,
  maxBytes: number,
): Promise<Uint8Array | undefined> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of stream) {
    total += chunk.length;
    if (total > maxBytes) return undefined;
    chunks.push(chunk);
  }
  return concatBytes(chunks);
}
