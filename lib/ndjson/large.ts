/**
 * A record holding a huge string (a 50 MB tool result), serialized as
 * pieces of at most about a megabyte instead of one string: the same bytes
 * as `jsonSafe(JSON.stringify(record))`, without a second full copy of the
 * text in memory (nor a third, when a `+ "\n"` would be flattened for
 * slicing). tests/ndjson/large_test.ts checks the equality.
 *
 * @module
 */

import { jsonSafe } from "../output/visible.ts";

/** Strings longer than this (UTF-16 units) are serialized in pieces of this size. */
export const PIECE_CHARS = 1 << 20;

/**
 * The pieces of `jsonSafe(JSON.stringify(record))`, produced lazily, or
 * undefined when `record` holds no string longer than `pieceChars` (then
 * the caller serializes it whole, as usual).
 */
export function largeJsonPieces(
  record: unknown,
  pieceChars: number = PIECE_CHARS,
): Iterable<string> | undefined {
  if (!holdsLongString(record, pieceChars, 0)) return undefined;
  const nonce = crypto.randomUUID();
  const long: string[] = [];
  const skeleton = JSON.stringify(record, (_key, value) => {
    if (typeof value !== "string" || value.length <= pieceChars) return value;
    long.push(value);
    return `\u0000jn:${nonce}:${long.length - 1}`;
  });
  return pieces(skeleton, long, nonce, pieceChars);
}

function* pieces(
  skeleton: string,
  long: string[],
  nonce: string,
  pieceChars: number,
): Generator<string> {
  let at = 0;
  for (let i = 0; i < long.length; i++) {
    const mark = JSON.stringify(`\u0000jn:${nonce}:${i}`);
    const found = skeleton.indexOf(mark, at);
    yield jsonSafe(skeleton.slice(at, found));
    yield '"';
    const text = long[i];
    for (let start = 0; start < text.length;) {
      let end = Math.min(text.length, start + pieceChars);
      // Never split a surrogate pair: each half would be escaped on its own.
      const code = text.charCodeAt(end - 1);
      if (end < text.length && code >= 0xd800 && code <= 0xdbff) end--;
      yield jsonSafe(JSON.stringify(text.slice(start, end)).slice(1, -1));
      start = end;
    }
    yield '"';
    at = found + mark.length;
  }
  yield jsonSafe(skeleton.slice(at));
}

/** Whether `value` holds a string longer than `limit` (not looking deeper than JSON would). */
function holdsLongString(value: unknown, limit: number, depth: number): boolean {
  if (typeof value === "string") return value.length > limit;
  if (value === null || typeof value !== "object" || depth > 64) return false;
  if (typeof (value as { toJSON?: unknown }).toJSON === "function") return false;
  for (const item of Array.isArray(value) ? value : Object.values(value)) {
    if (holdsLongString(item, limit, depth + 1)) return true;
  }
  return false;
}
