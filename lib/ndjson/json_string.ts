/**
 * The content of one JSON string literal, unescaped as its bytes come (in
 * parts cut outside an escape) into one UTF-8 buffer, and decoded once at
 * its end: the same string as `JSON.parse` of the literal, with no more in
 * memory than its bytes, then its text (the buffer is freed before the text
 * is handed on). Raw control characters are the caller's to refuse (its
 * lexer sees them); a bad escape is refused here. A lone surrogate
 * (`\uD800` without its other half) has no UTF-8: the content is cut into
 * strings around it (rare, so the common case stays one buffer).
 *
 * @module
 */

import { release } from "./memory.ts";

const BACKSLASH = 0x5c;

/** One JSON string's content, unescaped a part at a time. */
export class JsonStringContent {
  #out = new Uint8Array(0);
  #outBytes = 0;
  /** A high surrogate `\uD8xx` whose low half may come next, or -1. */
  #high = -1;
  /** Text before a lone surrogate, and the surrogate (up to {@linkcode PIECES}). */
  #pieces: string[] = [];
  /**
   * The pieces so far, joined {@linkcode PIECES} at a time: a string of
   * lone surrogates (one per 6 bytes of a server's line) holds about its
   * own size, not a string object per surrogate (~70 bytes each).
   */
  #blocks: string[] = [];
  // A byte-order mark inside a string is text: kept.
  #decoder = new TextDecoder("utf-8", { ignoreBOM: true });

  /**
   * Appends the content `bytes` (cut anywhere but inside an escape) unescaped, as
   * UTF-8: what `JSON.parse` gives, in bytes. False for a bad escape (then
   * the content is invalid; `reset()` before the next string).
   */
  push(bytes: Uint8Array): boolean {
    const n = bytes.length;
    if (n === 0) return true;
    // The unescaped content is never longer than the escaped one.
    this.#reserve(n);
    const out = this.#out;
    let o = this.#outBytes;
    let i = 0;
    if (this.#high !== -1) {
      // The last part ended with a high surrogate: its low half, or a lone one.
      const low = lowSurrogateAt(bytes, 0);
      if (low >= 0) {
        o = encodeUtf8(codePoint(this.#high, low), out, o);
        i = 6;
      } else o = this.#lone(this.#high, o);
      this.#high = -1;
    }
    // The hot loop: one branch per plain byte, one more per one-letter escape.
    for (; i < n; i++) {
      const b = bytes[i];
      if (b !== BACKSLASH) {
        out[o++] = b;
        continue;
      }
      const letter = bytes[++i];
      // Past the end (a part cut after a backslash): no letter, a bad escape.
      const simple = SIMPLE_ESCAPES[letter] ?? 0;
      if (simple !== 0) {
        out[o++] = simple;
        continue;
      }
      const code = letter === 0x75 ? hex4(bytes, i + 1) : -1;
      if (code < 0) return false;
      i += 4; // on the escape's last digit
      if (code < 0xd800 || code > 0xdfff) {
        o = encodeUtf8(code, out, o);
        continue;
      }
      if (code <= 0xdbff) {
        if (i + 1 === n) {
          this.#high = code; // its low half may start the next part
          break;
        }
        const low = lowSurrogateAt(bytes, i + 1);
        if (low >= 0) {
          o = encodeUtf8(codePoint(code, low), out, o);
          i += 6;
          continue;
        }
      }
      o = this.#lone(code, o);
    }
    this.#outBytes = o;
    return true;
  }

  /**
   * A lone surrogate at `out[o]`: the content so far becomes a string, the
   * surrogate another; returns where the content goes on (the start).
   */
  #lone(unit: number, o: number): number {
    if (o > 0) this.#pieces.push(this.#decoder.decode(this.#out.subarray(0, o)));
    this.#pieces.push(String.fromCharCode(unit));
    if (this.#pieces.length >= PIECES) {
      this.#blocks.push(this.#pieces.join(""));
      this.#pieces = [];
    }
    return 0;
  }

  /**
   * The whole content as one string, its bytes freed before it is handed
   * on; ready for the next string.
   */
  end(): string {
    if (this.#high !== -1) {
      this.#outBytes = this.#lone(this.#high, this.#outBytes);
      this.#high = -1;
    }
    let text = this.#decoder.decode(this.#out.subarray(0, this.#outBytes));
    release(this.#out);
    this.#out = new Uint8Array(0);
    this.#outBytes = 0;
    if (this.#pieces.length > 0 || this.#blocks.length > 0) {
      this.#pieces.push(text);
      this.#blocks.push(this.#pieces.join(""));
      text = this.#blocks.join("");
      this.#pieces = [];
      this.#blocks = [];
    }
    return text;
  }

  /** Room for `more` bytes of content. */
  #reserve(more: number): void {
    const needed = this.#outBytes + more;
    if (needed <= this.#out.length) return;
    const grown = new Uint8Array(Math.max(needed, 2 * this.#out.length));
    grown.set(this.#out.subarray(0, this.#outBytes));
    release(this.#out);
    this.#out = grown;
  }

  /** Forgets the content under way (its buffer is freed). */
  reset(): void {
    if (this.#out.length > 0) {
      release(this.#out);
      this.#out = new Uint8Array(0);
    }
    this.#outBytes = 0;
    this.#high = -1;
    this.#pieces = [];
    this.#blocks = [];
  }
}

/** How many pieces around lone surrogates are held before they are joined into one string. */
const PIECES = 4096;

/** What `\"`, `\\` and the other one-letter escapes stand for, by the letter; 0 for none. */
const SIMPLE_ESCAPES = (() => {
  const table = new Int32Array(256);
  const pairs: [string, number][] = [
    ['"', 0x22],
    ["\\", 0x5c],
    ["/", 0x2f],
    ["b", 0x08],
    ["f", 0x0c],
    ["n", 0x0a],
    ["r", 0x0d],
    ["t", 0x09],
  ];
  for (const [letter, code] of pairs) table[letter.charCodeAt(0)] = code;
  return table;
})();

/** The value of four hex digits at `bytes[at]`, or -1. */
function hex4(bytes: Uint8Array, at: number): number {
  let value = 0;
  for (let k = at; k < at + 4; k++) {
    const b = bytes[k];
    const digit = b >= 0x30 && b <= 0x39
      ? b - 0x30
      : b >= 0x61 && b <= 0x66
      ? b - 0x57
      : b >= 0x41 && b <= 0x46
      ? b - 0x37
      : -1;
    if (digit < 0 || k >= bytes.length) return -1;
    value = value * 16 + digit;
  }
  return value;
}

/** The low surrogate of a `\\uDC00`–`\\uDFFF` escape at `bytes[at]`, or -1. */
function lowSurrogateAt(bytes: Uint8Array, at: number): number {
  if (bytes[at] !== BACKSLASH || bytes[at + 1] !== 0x75) return -1;
  const code = hex4(bytes, at + 2);
  return code >= 0xdc00 && code <= 0xdfff ? code : -1;
}

/** The code point of a surrogate pair. */
function codePoint(high: number, low: number): number {
  return 0x10000 + ((high - 0xd800) << 10) + (low - 0xdc00);
}

/** Writes code point `code` (not a surrogate) as UTF-8 at `out[o]`; returns the next offset. */
function encodeUtf8(code: number, out: Uint8Array, o: number): number {
  if (code < 0x80) {
    out[o] = code;
    return o + 1;
  }
  if (code < 0x800) {
    out[o] = 0xc0 | (code >> 6);
    out[o + 1] = 0x80 | (code & 0x3f);
    return o + 2;
  }
  if (code < 0x10000) {
    out[o] = 0xe0 | (code >> 12);
    out[o + 1] = 0x80 | ((code >> 6) & 0x3f);
    out[o + 2] = 0x80 | (code & 0x3f);
    return o + 3;
  }
  out[o] = 0xf0 | (code >> 18);
  out[o + 1] = 0x80 | ((code >> 12) & 0x3f);
  out[o + 2] = 0x80 | ((code >> 6) & 0x3f);
  out[o + 3] = 0x80 | (code & 0x3f);
  return o + 4;
}
