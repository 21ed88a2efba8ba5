/**
 * Long JSON strings taken out of a stream of JSON lines while they arrive,
 * so that a huge tool result is never held as bytes, as a line of text and
 * as the parsed string at once.
 *
 * A {@linkcode LongStrings} sits in front of the line splitter of a
 * server's stdout. It follows the string literals of each line that starts
 * like JSON (`{` or `[`), byte by byte (a literal ends at an unescaped `"`);
 * a literal longer than `minBytes` is unescaped a part at a time (cut
 * outside an escape) while the next bytes arrive (json_string.ts), decoded
 * once at its end, and the line goes on with a placeholder in its place.
 * {@linkcode LongStrings.parse} then parses the (now short) line and puts
 * each string back, as a value or as a key, in its place: the same value as
 * `JSON.parse` of the whole line. A long literal that is not valid (a raw
 * control character, a bad escape) makes the line invalid JSON, as it was.
 * Nothing else is interpreted: whether the rest of the line is JSON is for
 * `JSON.parse` to say.
 *
 * It is over 300 lines because the byte scanner, the spill of a long
 * literal and the walk that restores the strings are one state machine over the same
 * line: split up, each part would need the others' state.
 *
 * @module
 */

import { JsonStringContent } from "./json_string.ts";
import { grown, release } from "./memory.ts";

/** Options of {@linkcode LongStrings}. */
export interface LongStringOptions {
  /** A string literal longer than this many bytes is taken out. Default 1 MiB. */
  minBytes?: number;
  /** The bound of one line, in bytes (all of them). Default: none. */
  maxBytes?: number;
  /**
   * Called once per line longer than `maxBytes`; the rest of that line is
   * passed on without its bytes (only its newline), for the consumer to drop it.
   */
  tooLarge?: () => void;
}

const LINE_START = 0;
const NOISE = 1;
const OUT = 2;
const IN_STRING = 3;
const ESCAPE = 4;
const HEX = 5;
/** The line went beyond the bound: skipped up to its newline. */
const OVER = 6;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const NEWLINE = 0x0a;
/**
 * What may come before a line's `{` or `[` for its strings to be followed:
 * JSON whitespace. (Any other line, a byte-order mark's included, is passed
 * on as it comes.)
 */
const LEADING = new Set([0x20, 0x09, 0x0d]);

/** What stands for a long literal that is not valid: invalid JSON itself (a raw control character). */
const BROKEN = new Uint8Array([QUOTE, 0x01, QUOTE]);

/** A filter of a byte stream of JSON lines that takes their long strings out. */
export class LongStrings {
  #forward: (bytes: Uint8Array) => void;
  #min: number;
  #max: number;
  #tooLarge?: () => void;
  #state = LINE_START;
  #hex = 0;
  #lineBytes = 0;
  /** The open literal (from its quote) that a chunk's end cut: not passed on yet. */
  #held = new Uint8Array(0);
  #heldBytes = 0;
  /** The last place in `#held` where the literal may be cut, or -1. */
  #safe = -1;
  /** The open literal's content, unescaped as it comes, once it is long. */
  #content = new JsonStringContent();
  /** The open literal holds a raw control character (invalid JSON). */
  #control = false;
  #spilling = false;
  #broken = false;
  /** The strings taken out of the current line, by placeholder. */
  #taken = new Map<string, string>();
  #prefix = `\u0000jn:${crypto.randomUUID()}:`;
  #count = 0;
  #encoder = new TextEncoder();

  /**
   * `forward` gets the bytes to frame (views of the chunks, valid during the
   * call only). The chunks pushed are this filter's: each is released once read.
   */
  constructor(forward: (bytes: Uint8Array) => void, options: LongStringOptions = {}) {
    this.#forward = forward;
    this.#min = options.minBytes ?? 1 << 20;
    this.#max = options.maxBytes ?? Infinity;
    this.#tooLarge = options.tooLarge;
  }

  /** Takes the next chunk of the stream. */
  push(chunk: Uint8Array): void {
    const n = chunk.length;
    let from = 0; // chunk[from..i) is neither passed on nor held yet
    let counted = 0; // chunk[counted..i) is not in #lineBytes yet
    let literal = -1; // the opening quote of the open literal, when in this chunk
    let lineStart = 0; // where the current line starts, when in this chunk
    let state = this.#state;
    let i = 0;
    while (i < n) {
      if (state === IN_STRING) {
        // The hot loop: up to the next quote, backslash or control character.
        let c = 0;
        while (i < n) {
          c = chunk[i];
          if (c === QUOTE || c === BACKSLASH || c < 0x20) break;
          i++;
        }
        if (i === n) break;
        if (c === QUOTE) {
          from = this.#close(chunk, from, literal, i);
          literal = -1;
          state = OUT;
          i++;
          continue;
        }
        if (c === BACKSLASH) {
          const letter = i + 1 < n ? chunk[i + 1] : -1;
          if (letter === -1) state = ESCAPE;
          else if (letter === 0x75) {
            this.#hex = 4;
            state = HEX;
          }
          // A newline is never skipped: it ends the line whatever came before.
          i += letter === NEWLINE ? 1 : 2;
          continue;
        }
        if (c !== NEWLINE) {
          this.#control = true;
          i++;
          continue;
        }
      }
      const b = chunk[i];
      if (b === NEWLINE) {
        // Whole lines go on in one piece with what follows them, unless
        // strings were taken out of them (then the line is parsed at once,
        // before the next one).
        this.#lineBytes += i - counted;
        if (state === OVER) {
          this.#forward(chunk.subarray(i, i + 1));
          from = i + 1;
        } else if (this.#lineBytes > this.#max) {
          this.#forward(chunk.subarray(from, lineStart));
          this.#overflow();
          this.#forward(chunk.subarray(i, i + 1));
          from = i + 1;
        } else if (state >= IN_STRING && state <= HEX) {
          // A raw newline in a string: invalid JSON, passed on as it came.
          this.#abandon();
        }
        if (this.#taken.size > 0) {
          this.#forward(chunk.subarray(from, i + 1));
          from = i + 1;
          this.#taken.clear();
        }
        this.#lineBytes = 0;
        counted = lineStart = i + 1;
        literal = -1;
        state = LINE_START;
        i++;
        continue;
      }
      switch (state) {
        case OUT:
          while (i < n && chunk[i] !== QUOTE && chunk[i] !== NEWLINE) i++;
          if (i < n && chunk[i] === QUOTE) {
            literal = i;
            this.#control = false;
            state = IN_STRING;
            i++;
          }
          break;
        case ESCAPE:
          if (b === 0x75) {
            this.#hex = 4;
            state = HEX;
          } else state = IN_STRING;
          i++;
          break;
        case HEX:
          if (--this.#hex === 0) state = IN_STRING;
          i++;
          break;
        case LINE_START:
          if (b === 0x7b || b === 0x5b) state = OUT;
          else if (!LEADING.has(b)) state = NOISE;
          i++;
          break;
        default: {
          // NOISE and OVER: nothing to follow up to the newline.
          const newline = chunk.indexOf(NEWLINE, i);
          i = newline === -1 ? n : newline;
        }
      }
    }
    this.#state = state;
    this.#lineBytes += n - counted;
    if (state === OVER) {
      // Skipped up to the newline.
    } else if (this.#lineBytes > this.#max) {
      this.#forward(chunk.subarray(from, lineStart));
      this.#overflow();
    } else if (state >= IN_STRING && state <= HEX) {
      if (literal >= 0) {
        this.#forward(chunk.subarray(from, literal));
        from = literal;
      }
      const part = chunk.subarray(from);
      this.#hold(part, this.#cut(part, literal >= 0 ? 1 : 0, state));
    } else this.#forward(chunk.subarray(from));
    release(chunk);
  }

  /**
   * The last place in `part` (the open literal's bytes in a chunk, its
   * content from `low`) where the content may be cut — outside an escape —
   * given the state after its last byte; -1 for none. (A character's UTF-8
   * bytes may be cut: the content is unescaped into one buffer and decoded
   * whole.)
   */
  #cut(part: Uint8Array, low: number, state: number): number {
    let at = part.length;
    if (state === ESCAPE) at -= 1;
    else if (state === HEX) at -= 6 - this.#hex;
    return at > low ? at : -1;
  }

  /** The stream ended: an open literal is passed on (cut, so the line does not parse). */
  end(): void {
    if (this.#state >= IN_STRING && this.#state <= HEX) this.#abandon();
    this.#state = LINE_START;
  }

  /** `JSON.parse` of a line this filter passed on, with its long strings put back. */
  parse(line: string): unknown {
    const value = JSON.parse(line);
    return this.#taken.size === 0 ? value : restore(value, this.#taken);
  }

  /** Appends the open literal's part of a chunk to what is held, then decodes what it can. */
  #hold(part: Uint8Array, safe: number): void {
    if (this.#broken) return; // only its end is looked for now
    const start = this.#heldBytes;
    this.#append(part);
    if (safe >= 0) this.#safe = start + safe;
    if (this.#heldBytes - 1 > this.#min && this.#safe > 1) {
      this.#spilling = true;
      this.#unescape(this.#held.subarray(1, this.#safe));
      this.#held.copyWithin(1, this.#safe, this.#heldBytes);
      this.#heldBytes -= this.#safe - 1;
      this.#safe = -1;
    }
  }

  /**
   * The open literal closes at `chunk[quote]`; it opened at `chunk[literal]`,
   * or in an earlier chunk (`literal` -1, the rest held). Returns where the
   * chunk's unsent part starts now.
   */
  #close(chunk: Uint8Array, from: number, literal: number, quote: number): number {
    const held = this.#heldBytes > 0;
    const contentBytes = held ? this.#heldBytes - 1 + quote - from : quote - literal - 1;
    if (!this.#spilling && contentBytes <= this.#min) {
      // A short literal: passed on as it came (with what follows it).
      if (held) this.#forward(this.#held.subarray(0, this.#heldBytes));
      this.#reset();
      return from;
    }
    if (held) {
      if (!this.#broken) {
        this.#append(chunk.subarray(from, quote));
        this.#unescape(this.#held.subarray(1, this.#heldBytes));
      }
    } else {
      this.#forward(chunk.subarray(from, literal));
      this.#unescape(chunk.subarray(literal + 1, quote));
    }
    const text = this.#broken || this.#control ? undefined : this.#content.end();
    if (text === undefined) this.#forward(BROKEN);
    else {
      const placeholder = this.#prefix + this.#count++;
      this.#taken.set(placeholder, text);
      this.#forward(this.#encoder.encode(JSON.stringify(placeholder)));
    }
    this.#reset();
    return quote + 1;
  }

  /** Unescapes a part of the open literal's content (whole escapes); a bad one breaks it. */
  #unescape(bytes: Uint8Array): void {
    if (this.#broken || this.#control || !this.#content.push(bytes)) this.#broken = true;
  }

  /** A newline inside an open literal (invalid JSON): what is held is passed on as it came. */
  #abandon(): void {
    if (this.#spilling) this.#forward(BROKEN.subarray(0, 2));
    else if (this.#heldBytes > 0) this.#forward(this.#held.subarray(0, this.#heldBytes));
    this.#reset();
  }

  #overflow(): void {
    this.#reset();
    // The line is dropped: its strings are not held until a newline that may never come.
    this.#taken.clear();
    this.#state = OVER;
    this.#tooLarge?.();
  }

  #append(bytes: Uint8Array): void {
    const needed = this.#heldBytes + bytes.length;
    if (needed > this.#held.length) this.#held = grown(this.#held, this.#heldBytes, needed);
    this.#held.set(bytes, this.#heldBytes);
    this.#heldBytes = needed;
  }

  /** No literal open any more (the line goes on). */
  #reset(): void {
    if (this.#held.length > 4 * this.#min || this.#held.length > 1 << 22) {
      release(this.#held);
      this.#held = new Uint8Array(0);
    }
    this.#heldBytes = 0;
    this.#safe = -1;
    this.#content.reset();
    this.#control = false;
    this.#spilling = false;
    this.#broken = false;
  }
}

/**
 * `value` (parsed) with its placeholders, values and keys, replaced by their
 * strings. A walk with a stack of its own, not `JSON.parse`'s reviver: that
 * one recurses, and a line nested a few thousand deep, which `JSON.parse`
 * alone takes, would overflow the call stack.
 */
function restore(value: unknown, taken: Map<string, string>): unknown {
  const root = restoreOne(value, taken);
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const holder = stack.pop();
    if (Array.isArray(holder)) {
      for (let i = 0; i < holder.length; i++) {
        const item = holder[i];
        if (typeof item !== "object" && typeof item !== "string" || item === null) continue;
        const restored = restoreOne(item, taken);
        if (restored !== item) holder[i] = restored;
        if (typeof restored === "object") stack.push(restored);
      }
    } else if (typeof holder === "object" && holder !== null) {
      const record = holder as Record<string, unknown>;
      for (const key of Object.keys(record)) {
        const item = record[key];
        if (typeof item !== "object" && typeof item !== "string" || item === null) continue;
        const restored = restoreOne(item, taken);
        // An own data property (even `__proto__`): a plain assignment sets it.
        if (restored !== item) record[key] = restored;
        if (typeof restored === "object") stack.push(restored);
      }
    }
  }
  return root;
}

/** A string or an object with its placeholders put back (not what it holds). */
function restoreOne(value: unknown, taken: Map<string, string>): unknown {
  if (typeof value === "string") return taken.get(value) ?? value;
  if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
  return restoreKeys(value as Record<string, unknown>, taken);
}

/** `value` with its placeholder keys replaced by their strings, in the same order. */
function restoreKeys(
  value: Record<string, unknown>,
  taken: Map<string, string>,
): Record<string, unknown> {
  const keys = Object.keys(value);
  if (!keys.some((key) => taken.has(key))) return value;
  const restored: Record<string, unknown> = {};
  for (const key of keys) {
    Object.defineProperty(restored, taken.get(key) ?? key, {
      value: value[key],
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return restored;
}
