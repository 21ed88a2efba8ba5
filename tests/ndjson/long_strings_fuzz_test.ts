/**
 * Differential fuzzing of LongStrings (lib/ndjson/long_strings.ts) against
 * `JSON.parse` of each whole line: random and adversarial JSON lines (strings
 * just below and above the threshold, long keys, `__proto__`, duplicate keys,
 * escapes and characters cut by the chunks, lone surrogates, invalid UTF-8,
 * raw control characters, truncated and mutated lines), pushed in random
 * chunks through LongStrings then the line splitter as the stdio transport
 * does. Seeded: a failure names its seed, stream and chunking.
 *
 * The reference can be wrong: V8's JSON.parse (Deno 2.9.6's V8 15.0 too)
 * may read an escaped key as the key of an existing map transition with the
 * same prefix (`{"a":1,"\\":2}` then `{"a":1,"\"":2}` gives the key `\`,
 * https://github.com/nodejs/node/issues/63785). Other seeds than these hit
 * it (seed 120 of the unbounded run, after seeds 100–119): a failure whose
 * expected side has the wrong key is that bug, not LongStrings'.
 */
import assert from "node:assert/strict";
import { LongStrings } from "../../lib/ndjson/long_strings.ts";
import { LineSplitter } from "../../lib/ndjson/split.ts";

/** A small seeded generator (mulberry32). */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Outcome = string;

/** The message as the transport would hand it on, or what became of the line. */
function describe(parse: () => unknown): Outcome {
  let value: unknown;
  try {
    value = parse();
  } catch {
    return "error";
  }
  return `value:${canonical(value)}`;
}

/** JSON text in own-key order, with every object's prototype checked. */
function canonical(value: unknown): string {
  // Iterative: a line may nest deeper than the call stack goes.
  const stack = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v !== "object" || v === null) continue;
    if (Array.isArray(v)) {
      stack.push(...v);
      continue;
    }
    if (Object.getPrototypeOf(v) !== Object.prototype) throw new Error("prototype changed");
    for (const key of Object.keys(v)) stack.push((v as Record<string, unknown>)[key]);
  }
  return JSON.stringify(value);
}

/** What the transport does with one decoded line (see process_transport.ts #handleLine). */
function classify(raw: string, parse: (line: string) => unknown): Outcome | undefined {
  const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
  if (line.trim() === "") return undefined;
  const first = line.trimStart()[0];
  if (first !== "{" && first !== "[") return `noise:${line}`;
  return describe(() => parse(line));
}

function viaLongStrings(
  bytes: Uint8Array,
  cuts: number[],
  options: { minBytes: number; maxBytes?: number },
): Outcome[] {
  const outcomes: Outcome[] = [];
  const strings = new LongStrings((part) => splitter.push(part), {
    minBytes: options.minBytes,
    maxBytes: options.maxBytes,
    tooLarge: () => splitter.dropLine(),
  });
  const splitter = new LineSplitter({
    line: (text) => {
      const outcome = classify(text, (line) => strings.parse(line));
      if (outcome !== undefined) outcomes.push(outcome);
    },
    tooLarge: () => outcomes.push("too large"),
  }, { maxBytes: options.maxBytes });
  let start = 0;
  for (const cut of [...cuts, bytes.length]) {
    strings.push(bytes.slice(start, cut)); // a copy: the filter releases what it is given
    start = cut;
  }
  strings.end();
  splitter.end();
  return outcomes;
}

function reference(bytes: Uint8Array, maxBytes = Infinity): Outcome[] {
  const outcomes: Outcome[] = [];
  let start = 0;
  const decoder = new TextDecoder();
  while (start < bytes.length) {
    let end = bytes.indexOf(0x0a, start);
    if (end === -1) end = bytes.length;
    if (end - start > maxBytes) outcomes.push("too large");
    else {
      const outcome = classify(decoder.decode(bytes.subarray(start, end)), (l) => JSON.parse(l));
      if (outcome !== undefined) outcomes.push(outcome);
    }
    start = end + 1;
  }
  return outcomes;
}

const encoder = new TextEncoder();

/** A random generator of (possibly broken) JSON lines as bytes. */
class Lines {
  #r: () => number;
  #min: number;
  constructor(random: () => number, min: number) {
    this.#r = random;
    this.#min = min;
  }
  #int(n: number): number {
    return Math.floor(this.#r() * n);
  }
  #pick<T>(items: T[]): T {
    return items[this.#int(items.length)];
  }

  /** One atom of a string literal's content, as bytes. */
  #atom(): number[] {
    const r = this.#r();
    if (r < 0.45) {
      return [...encoder.encode(this.#pick(["a", "b", "x", " ", "{", "}", "[", ":", ","]))];
    }
    if (r < 0.55) {
      return [...encoder.encode(this.#pick(["é", "€", "😀", "日", "\uFEFF", "\u2028"]))];
    }
    if (r < 0.75) {
      return [...encoder.encode(this.#pick([
        '\\"',
        "\\\\",
        "\\/",
        "\\b",
        "\\f",
        "\\n",
        "\\r",
        "\\t",
        "\\u0041",
        "\\u00e9",
        "\\u0000",
        "\\uFEFF",
        "\\ud83d\\ude00",
        "\\uD834\\uDD1E",
        "\\ud800",
        "\\udbff",
        "\\udc00",
        "\\uDFFF",
        "\\u005c",
        "\\u0022",
        "\\u000a",
      ]))];
    }
    if (r < 0.985) return [0x61 + this.#int(3)];
    // Rare: not valid (in a string or as UTF-8).
    return this.#pick([
      [0x01],
      [0x00],
      [0x1f],
      [0x09],
      [0x0d],
      [0x5c, 0x78],
      [0x5c, 0x75, 0x31, 0x32, 0x67, 0x34],
      [0x5c, 0x55, 0x30, 0x30, 0x34, 0x31],
      [0xc3],
      [0xe2, 0x82],
      [0xf0, 0x9f, 0x98],
      [0x80],
      [0xed, 0xa0, 0x80],
      [0xff],
      [0x7f],
    ]);
  }

  /** A string literal (with its quotes) of about `bytes` bytes of content. */
  string(bytes?: number): number[] {
    const target = bytes ?? this.#stringLength();
    const content: number[] = [];
    while (content.length < target) content.push(...this.#atom());
    return [0x22, ...content, 0x22];
  }

  #stringLength(): number {
    const r = this.#r();
    const min = this.#min;
    if (r < 0.3) return this.#int(4);
    if (r < 0.7) return Math.max(0, min - 3 + this.#int(7)); // around the threshold
    return this.#int(3 * min + 10);
  }

  value(depth: number): number[] {
    const r = this.#r();
    if (depth > 3 || r < 0.35) return this.string();
    if (r < 0.5) {
      return [...encoder.encode(this.#pick(["1", "-0", "2.5e3", "true", "false", "null", "0"]))];
    }
    if (r < 0.75) return this.array(depth + 1);
    return this.object(depth + 1);
  }

  array(depth: number): number[] {
    const n = this.#int(4);
    const out = [0x5b];
    for (let i = 0; i < n; i++) {
      if (i > 0) out.push(0x2c);
      if (this.#r() < 0.1) out.push(0x20);
      out.push(...this.value(depth));
    }
    out.push(0x5d);
    return out;
  }

  object(depth: number): number[] {
    const n = this.#int(5);
    const out = [0x7b];
    const keys: number[][] = [];
    for (let i = 0; i < n; i++) {
      if (i > 0) out.push(0x2c);
      const r = this.#r();
      let key: number[];
      if (r < 0.15 && keys.length > 0) key = this.#pick(keys); // a duplicate
      else if (r < 0.25) {
        key = [
          ...encoder.encode(this.#pick(['"__proto__"', '"constructor"', '"\\u005f_proto__"'])),
        ];
      } else if (r < 0.3) {
        key = [...encoder.encode(`"${"k".repeat(Math.max(0, this.#min - 1 + this.#int(3)))}"`)];
      } else key = this.string();
      keys.push(key);
      out.push(...key, 0x3a, ...this.value(depth));
    }
    out.push(0x7d);
    return out;
  }

  /** One line, without its newline; sometimes broken. */
  line(): number[] {
    const r = this.#r();
    let line: number[];
    if (r < 0.05) line = [...encoder.encode('log: "quoted" text')];
    else if (r < 0.1) line = this.string();
    else if (r < 0.45) line = this.array(0);
    else line = this.object(0);
    const m = this.#r();
    if (m < 0.1) line = line.slice(0, this.#int(line.length + 1)); // truncated
    else if (m < 0.2) {
      const at = this.#int(line.length + 1);
      line.splice(at, 0, this.#pick([0x22, 0x5c, 0x01, 0x20, 0x7d, 0x30, 0x0d]));
    } else if (m < 0.25) line.splice(this.#int(line.length), 1);
    const p = this.#r();
    if (p < 0.1) line.unshift(0x20, 0x09);
    else if (p < 0.13) line.unshift(0xef, 0xbb, 0xbf); // a byte-order mark
    else if (p < 0.15) line.unshift(0x0d);
    if (this.#r() < 0.1) line.push(0x0d); // CRLF
    return line;
  }
}

function stream(random: () => number, min: number): Uint8Array {
  const lines = new Lines(random, min);
  const bytes: number[] = [];
  const n = 1 + Math.floor(random() * 4);
  for (let i = 0; i < n; i++) {
    bytes.push(...lines.line());
    if (i < n - 1 || random() < 0.8) bytes.push(0x0a);
  }
  return new Uint8Array(bytes);
}

function randomCuts(random: () => number, length: number): number[] {
  const r = random();
  if (r < 0.2) return Array.from({ length: length - 1 }, (_, i) => i + 1); // every byte
  const count = Math.floor(random() * 8);
  const cuts = new Set<number>();
  for (let i = 0; i < count; i++) cuts.add(1 + Math.floor(random() * Math.max(1, length - 1)));
  return [...cuts].filter((cut) => cut < length).sort((a, b) => a - b);
}

function fuzz(seed: number, rounds: number, bounded: boolean, minFrom = 0): void {
  const random = prng(seed);
  for (let round = 0; round < rounds; round++) {
    const min = bounded ? 64 + Math.floor(random() * 32) : minFrom + Math.floor(random() * 24);
    const bytes = stream(random, min);
    const maxBytes = bounded ? 100 + Math.floor(random() * 200) : undefined;
    const expected = reference(bytes, maxBytes);
    for (let chunking = 0; chunking < 3; chunking++) {
      const cuts = randomCuts(random, bytes.length);
      const actual = viaLongStrings(bytes, cuts, { minBytes: min, maxBytes });
      const where = cuts.length === bytes.length - 1 ? "every byte" : `${cuts}`;
      assert.deepEqual(
        actual,
        expected,
        `seed ${seed} round ${round} min ${min} max ${maxBytes} cuts ${where}\n` +
          JSON.stringify(new TextDecoder().decode(bytes)),
      );
    }
  }
}

Deno.test("LongStrings fuzz: each line gives what JSON.parse of it gives, whatever the chunks", () => {
  for (const seed of [1, 2, 3, 4]) fuzz(seed, 600, false);
  // A threshold at which the filter keeps its buffer from one literal to the next (as at 1 MiB).
  fuzz(5, 100, false, 300);
});

Deno.test("LongStrings fuzz: with a line bound, lines over it are too large, the others as JSON.parse", () => {
  for (const seed of [11, 12]) fuzz(seed, 400, true);
});

Deno.test("LongStrings: a line nested deeper than a recursive walk goes gives what JSON.parse gives", () => {
  const depth = 100_000;
  const nested = `${"[".repeat(depth)}{"${"k".repeat(40)}":"${"v".repeat(40)}"}${
    "]".repeat(depth)
  }`;
  for (
    const line of [`{"a":"${"x".repeat(40)}","b":${nested}}`, `[${nested},"${"y".repeat(40)}"]`]
  ) {
    const bytes = encoder.encode(line + "\n");
    const expected = reference(bytes);
    assert.equal(expected[0].startsWith("value:"), true);
    const actual = viaLongStrings(bytes, [7, 1000, 150_000], { minBytes: 16 });
    assert.ok(actual.length === 1 && actual[0] === expected[0], actual[0].slice(0, 80));
  }
});
