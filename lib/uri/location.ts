/**
 * Checks the LOCATION of a naked URI by its launcher's own rule (the
 * descriptor's `location`, lib/launch/) and gives that rule the parser's
 * tools: strict percent-decoding and errors with a caret at the offending
 * offset. LOCATION is never parsed as a URL authority: `@scope/pkg@1` is a
 * package, not user-info. Pure, no I/O.
 *
 * @module
 */

import type { LauncherDescriptor, LocationContext } from "../launch/descriptor.ts";
import { type Fail, percentDecode } from "./percent.ts";

/**
 * LOCATION as `launcher` checks and returns it (package and script
 * launchers decode it; http(s) keeps it verbatim, escapes checked).
 */
export function checkLocation(
  launcher: LauncherDescriptor,
  raw: string,
  where: { scheme: string; start: number; fail: Fail },
): string {
  return launcher.location(raw, locationContext(where));
}

function locationContext(where: { scheme: string; start: number; fail: Fail }): LocationContext {
  const { fail } = where;
  return {
    ...where,
    decode: (text, start) => percentDecode(text, { start, fail }),
    word(text, what, options = {}) {
      const start = options.start ?? where.start;
      const word = percentDecode(text, { start, fail });
      if (word === "") fail(start, `${what} is empty`);
      if (word.startsWith("-")) {
        fail(
          start,
          `${what} "${word}" starts with "-" and would be read as an option`,
          options.dashHint?.(word),
        );
      }
      if (word.includes("\0")) fail(start, `${what} contains a NUL character`);
      return word;
    },
  };
}
