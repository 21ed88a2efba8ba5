/**
 * Parses the durations of flags such as `--timeout`: `500ms`, `30s`, `2m`,
 * `1h`, fractions like `1.5s`, and a bare number meaning seconds. `0` (in any
 * unit) means no limit. The result is whole milliseconds, at most what a
 * timer can wait (2^31-1 ms, about 24.8 days). Pure, no I/O.
 *
 * @module
 */

import { UsageError } from "../errors.ts";

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
const DURATION = /^(\d+(?:\.\d+)?|\.\d+)(ms|s|m|h)?$/;
const MAX_MS = 2 ** 31 - 1;

/**
 * Milliseconds of `text`; throws a `UsageError` naming `flag` (e.g. `--timeout`).
 *
 * @example
 * ```ts
 * parseDuration("2m", "--timeout"); // 120000
 * parseDuration("0", "--timeout"); // 0, no limit
 * ```
 */
export function parseDuration(text: string, flag: string): number {
  const match = DURATION.exec(text.trim());
  const fail = (detail: string): never => {
    throw new UsageError(`Invalid ${flag} "${text}": ${detail}`, {
      hint: `write a duration like 500ms, 30s, 2m or 1h (a bare number is seconds; 0 is no limit)`,
    });
  };
  if (match === null) return fail("expected a duration like 500ms, 30s, 2m or 1h");
  const ms = Math.round(Number(match[1]) * UNIT_MS[match[2] ?? "s"]);
  if (ms === 0 && Number(match[1]) !== 0) return fail("is shorter than 1ms");
  if (ms > MAX_MS) return fail("is longer than 24 days");
  return ms;
}
