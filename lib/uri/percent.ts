/**
 * Strict RFC 3986 percent-decoding for jn's URIs, and the one way the URI
 * modules report a syntax error. `%XX` is the only escape: `+` stays a plus
 * (so `lang=C++` means `C++`), a `%` not followed by two hex digits is an
 * error, and escapes must decode to valid UTF-8. Every error points at the
 * exact offset in the input. Pure, no I/O.
 *
 * @module
 */

import { UriSyntaxError } from "../errors.ts";
import type { Fail } from "../launch/descriptor.ts";

export type { Fail } from "../launch/descriptor.ts";

/** A {@linkcode Fail} for `input`: messages read `Cannot parse URI "…": detail`. */
export function failFor(input: string): Fail {
  return (index, detail, hint) => {
    throw new UriSyntaxError(input, index, `Cannot parse URI "${input}": ${detail}`, { hint });
  };
}

const HEX = /^[0-9A-Fa-f]{2}$/;
const UTF8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Decodes `%XX` escapes in `text`, which starts at offset `start` of the URI
 * (used for the caret). Characters other than escapes are kept as they are.
 */
export function percentDecode(text: string, options: { start: number; fail: Fail }): string {
  if (!text.includes("%")) return text;
  let out = "";
  let i = 0;
  while (i < text.length) {
    if (text[i] !== "%") {
      out += text[i];
      i++;
      continue;
    }
    // A run of consecutive escapes is one UTF-8 byte sequence.
    const runStart = i;
    const bytes: number[] = [];
    while (i < text.length && text[i] === "%") {
      const hex = text.slice(i + 1, i + 3);
      if (!HEX.test(hex)) {
        options.fail(
          options.start + i,
          `"%" must be followed by two hex digits`,
          `write %25 for a literal "%"`,
        );
      }
      bytes.push(parseInt(hex, 16));
      i += 3;
    }
    try {
      out += UTF8.decode(new Uint8Array(bytes));
    } catch {
      options.fail(options.start + runStart, "percent-escapes do not form valid UTF-8");
    }
  }
  return out;
}
