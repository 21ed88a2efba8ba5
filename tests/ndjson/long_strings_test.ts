import assert from "node:assert/strict";
import { LongStrings } from "../../lib/ndjson/long_strings.ts";
import { LineSplitter } from "../../lib/ndjson/split.ts";

type Outcome = { value: unknown } | { error: true } | { noise: string } | { tooLarge: true };

/** Lines through LongStrings then the splitter, as the transport reads a server's stdout. */
function run(
  text: string | Uint8Array,
  size: number,
  options: { minBytes?: number; maxBytes?: number } = {},
): Outcome[] {
  const outcomes: Outcome[] = [];
  const strings = new LongStrings((bytes) => splitter.push(bytes), {
    minBytes: options.minBytes ?? 8,
    maxBytes: options.maxBytes,
    tooLarge: () => splitter.dropLine(),
  });
  const splitter = new LineSplitter({
    line: (line) => {
      const first = line.trimStart()[0];
      if (first !== "{" && first !== "[") {
        if (line.trim() !== "") outcomes.push({ noise: line });
        return;
      }
      try {
        outcomes.push({ value: strings.parse(line) });
      } catch {
        outcomes.push({ error: true });
      }
    },
    tooLarge: () => outcomes.push({ tooLarge: true }),
  }, { maxBytes: options.maxBytes });
  const bytes = typeof text === "string" ? new TextEncoder().encode(text) : text;
  for (let start = 0; start < bytes.length; start += size) {
    strings.push(bytes.slice(start, start + size));
  }
  strings.end();
  splitter.end();
  return outcomes;
}

/** What JSON.parse of each line gives (the reference). */
function reference(text: string): Outcome[] {
  return text.split("\n").filter((line) => line.trim() !== "").map((line) => {
    const first = line.trimStart()[0];
    if (first !== "{" && first !== "[") return { noise: line };
    try {
      return { value: JSON.parse(line) };
    } catch {
      return { error: true };
    }
  });
}

const LINES = [
  JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    result: { content: [{ type: "text", text: "x".repeat(100) }] },
  }),
  JSON.stringify({ text: 'quotes " and \\ backslashes \\" and \n newlines \t tabs '.repeat(9) }),
  JSON.stringify({ text: "é€𝄞😀 日本語 ".repeat(20), short: "ok", n: [1, 2.5, null, true] }),
  // \u escapes, a surrogate pair written as two escapes, a BOM and NUL inside a string.
  '{"a":"\\u00e9\\u20ac\\ud83d\\ude00 \\u0000 \\ufeff \uFEFF long enough to be taken out \\/"}',
  JSON.stringify({ ["a long key that is taken out ".repeat(3)]: 1, b: { ["k".repeat(30)]: "v" } }),
  JSON.stringify([["nested", ["long string inside an array".repeat(4)]], {
    "__proto__": "x".repeat(40),
  }]),
  '  {"leading whitespace":"and a long value, long enough"}\r',
  'not json at all, a "quoted" log line that is long',
  '{"raw control char":"abc\u0001defghijklmnopqrstuv"}',
  '{"bad escape":"abc\\xdefghijklmnopqrstuvwxyz"}',
  '{"unterminated":"abcdefghijklmnopqrstuvwxyz}',
  '{"short":"a","b":"c"}',
  // Every escape; surrogate pairs, lone halves in every position, escaped and raw.
  '{"e":"\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u0041 \\u00e9 \\u20AC \\uD834\\uDD1E end"}',
  '{"lone":"\\ud800 high alone, \\udc00 low alone, \\ud800\\ud800\\udc00 two highs, \\udfff"}',
  '{"edge":"\\ud83d","pair at the very end: \\ud83d\\ude00":"\\ud83d\\ude00\\ud83d"}',
  '{"bad hex":"\\u12G4 and some more text to make it long"}',
  '{"raw control late":"a long text before the control character \u0007"}',
  '{"raw tab":"a long text with a tab\there, raw"}',
  '{"empty":"","quote only":"\\"","slash":"\\\\"}',
  // A backslash right before the newline: the line still ends there.
  '{"ends with a backslash":"long enough to be taken out \\',
  '{"next":"line"}',
];

Deno.test("LongStrings gives what JSON.parse of each whole line gives, whatever the chunks", () => {
  const text = LINES.join("\n") + "\n";
  const expected = reference(text);
  for (const size of [1, 2, 3, 7, 16, 64, 4096]) {
    for (const minBytes of [0, 8, 30, 1 << 20]) {
      assert.deepEqual(run(text, size, { minBytes }), expected, `chunks ${size}, min ${minBytes}`);
    }
  }
});

Deno.test("LongStrings restores a long key in its place among the object's keys", () => {
  const key = "k".repeat(50);
  const [outcome] = run(`{"a":1,"${key}":2,"z":3}\n`, 5);
  assert.deepEqual(Object.keys((outcome as { value: object }).value), ["a", key, "z"]);
  const [proto] = run(`{"__proto__":"${"p".repeat(40)}","${key}":{"__proto__":1}}\n`, 3);
  const value = (proto as { value: Record<string, unknown> }).value;
  assert.equal(Object.getPrototypeOf(value), Object.prototype);
  assert.equal(Object.hasOwn(value, "__proto__"), true);
  assert.deepEqual(Object.keys(value), ["__proto__", key]);
});

Deno.test("LongStrings keeps characters split across chunks and invalid UTF-8 as a whole decode would", () => {
  const encoder = new TextEncoder();
  const parts = [
    encoder.encode('{"t":"'),
    encoder.encode("é😀€".repeat(10)),
    new Uint8Array([0xe2, 0x41, 0x80, 0x80, 0xf0, 0x9f, 0x98, 0xc3]), // invalid sequences
    encoder.encode('tail"}\n'),
  ];
  const bytes = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    bytes.set(part, offset);
    offset += part.length;
  }
  const expected = JSON.parse(new TextDecoder().decode(bytes.subarray(0, bytes.length - 1)));
  for (const size of [1, 2, 3, 5, 9]) {
    assert.deepEqual(run(bytes, size, { minBytes: 4 }), [{ value: expected }], `chunks of ${size}`);
  }
});

Deno.test("LongStrings takes a 50 MB string out in pieces and gives it back whole", () => {
  const long = 'row \\"quoted\\" é '.repeat(3_000_000);
  const line = `{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"${long}"}]}}\n`;
  const outcomes = run(line, 64 * 1024, { minBytes: 1 << 20 });
  assert.deepEqual(outcomes, [{ value: JSON.parse(line) }]);
});

Deno.test("LongStrings enforces the bound on all bytes of a line, taken out or not", () => {
  const over = `{"a":"${"x".repeat(100)}"}`;
  const text = `{"ok":1}\n${over}\n{"ok":2}\n${"y".repeat(200)}\n{"ok":3}`;
  for (const size of [1, 7, 64, 100, 1000]) {
    assert.deepEqual(run(text, size, { minBytes: 8, maxBytes: 64 }), [
      { value: { ok: 1 } },
      { tooLarge: true },
      { value: { ok: 2 } },
      { tooLarge: true },
      { value: { ok: 3 } },
    ], `chunks of ${size}`);
  }
  // Exactly at the bound passes.
  const exact = `{"a":"${"x".repeat(56)}"}`;
  assert.equal(exact.length, 64);
  assert.deepEqual(run(exact + "\n", 5, { minBytes: 8, maxBytes: 64 }), [{
    value: JSON.parse(exact),
  }]);
});

Deno.test("LongStrings: a stream cut inside a long string ends with an unparsable line", () => {
  assert.deepEqual(run(`{"ok":1}\n{"a":"${"x".repeat(100)}`, 16, { minBytes: 8 }), [
    { value: { ok: 1 } },
    { error: true },
  ]);
});

Deno.test("LongStrings releases the chunks pushed to it", () => {
  const strings = new LongStrings(() => {});
  const chunk = new TextEncoder().encode('{"a":1}\n');
  strings.push(chunk);
  assert.equal((chunk.buffer as ArrayBuffer).detached, true);
});
