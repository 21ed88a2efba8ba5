/**
 * What a call prints, bounded (`cat`'s `maxBytes`, `--max-bytes N`): records
 * are kept in order while their NDJSON lines (as jn writes them: exact JSON,
 * terminal-safe, a newline each) fit in N bytes; the first that does not is
 * shortened when it is a record with a long `text` (its text cut, the record
 * marked `"truncated": true`), or left out; then one marker record says what
 * was cut:
 *
 *     {"type":"truncated","max_bytes":N,"records":M,"bytes":B}
 *
 * `records`: how many records were left out or shortened; `bytes`: how many
 * bytes of their lines were not printed. The marker counts toward N (room is
 * kept for it), so the whole output stays within N — unless N is smaller
 * than the marker itself, which is then all that is printed. Pure.
 *
 * @module
 */

import { jsonSafe } from "../output/visible.ts";

/** The marker's fields, the longest numbers they can hold: the room kept for it. */
const MARKER_ROOM = lineBytes(marker(Number.MAX_SAFE_INTEGER, 1e9, Number.MAX_SAFE_INTEGER));

/** Options of {@linkcode boundRecords}. */
export interface BoundOptions {
  /** Shorten a record's `text` to fit (false: payload records, whose fields are the tool's). */
  cutText?: boolean;
}

/**
 * The records that fit in `maxBytes`, then the marker when any did not (see the module doc).
 *
 * @example
 * ```ts
 * import { boundRecords } from "@jn/jn";
 *
 * boundRecords([{ text: "x".repeat(1000) }], 200);
 * // [{ text: "xxx…", truncated: true }, { type: "truncated", max_bytes: 200, records: 1, bytes: … }]
 * ```
 */
export function boundRecords(
  records: readonly unknown[],
  maxBytes: number,
  options: BoundOptions = {},
): unknown[] {
  const sizes = records.map(lineBytes);
  const total = sizes.reduce((sum, size) => sum + size, 0);
  if (total <= maxBytes) return [...records];
  const budget = Math.max(0, maxBytes - MARKER_ROOM);
  const out: unknown[] = [];
  let used = 0;
  let i = 0;
  for (; i < records.length && used + sizes[i] <= budget; i++) {
    out.push(records[i]);
    used += sizes[i];
  }
  const short = options.cutText === false ? undefined : cutText(records[i], budget - used);
  if (short !== undefined) {
    out.push(short);
    used += lineBytes(short);
  }
  out.push(marker(maxBytes, records.length - i, total - used));
  return out;
}

/**
 * The bytes of a record's NDJSON line as jn writes it.
 *
 * @example
 * ```ts
 * import { lineBytes } from "@jn/jn";
 *
 * lineBytes({ a: "é" }); // 11: {"a":"é"} is 10 bytes of UTF-8, then a newline
 * ```
 */
export function lineBytes(record: unknown): number {
  return new TextEncoder().encode(jsonSafe(JSON.stringify(record)) + "\n").length;
}

function marker(maxBytes: number, records: number, bytes: number) {
  return { type: "truncated", max_bytes: maxBytes, records, bytes };
}

/**
 * `record` with its `text` cut so that its line fits in `room` bytes,
 * marked `"truncated": true`; undefined when it has no text to cut or not
 * even its first character fits.
 */
function cutText(record: unknown, room: number): Record<string, unknown> | undefined {
  if (typeof record !== "object" || record === null || Array.isArray(record)) return undefined;
  const object = record as Record<string, unknown>;
  if (typeof object.text !== "string" || object.text === "") return undefined;
  const chars = Array.from(object.text);
  const at = (n: number) => ({ ...object, text: chars.slice(0, n).join(""), truncated: true });
  if (lineBytes(at(1)) > room) return undefined;
  // The longest prefix that fits: escapes make a line's size grow unevenly with the text.
  let low = 1;
  let high = chars.length - 1;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (lineBytes(at(mid)) <= room) low = mid;
    else high = mid - 1;
  }
  return at(low);
}
