import assert from "node:assert/strict";
import { LineSplitter } from "../../lib/ndjson/split.ts";

function frame(chunks: string[], max = 1024) {
  const events: string[] = [];
  const framer = new LineSplitter({
    line: (text, last) => events.push(last ? `last:${text}` : text),
    tooLarge: () => events.push("too large"),
  }, { maxBytes: max });
  const encoder = new TextEncoder();
  for (const chunk of chunks) framer.push(encoder.encode(chunk));
  framer.end();
  return events;
}

Deno.test("LineSplitter joins lines across chunks and delivers the unterminated last one", () => {
  assert.deepEqual(frame(["a\nb", "c", "d\n\ne", "é\nf"]), ["a", "bcd", "", "eé", "last:f"]);
  assert.deepEqual(frame(["x\n"]), ["x"]);
});

Deno.test("LineSplitter drops a line beyond the bound up to its newline, then goes on", () => {
  assert.deepEqual(frame(["12345", "6789\nok\n"], 8), ["too large", "ok"]);
  assert.deepEqual(frame(["123456789\nok\n"], 8), ["too large", "ok"]);
  assert.deepEqual(frame(["12345678\n"], 8), ["12345678"]);
  assert.deepEqual(frame(["1234", "56789", "more", "\nok"], 8), ["too large", "last:ok"]);
});

Deno.test("LineSplitter with overflow split lets a long unterminated line out in pieces", () => {
  const events: string[] = [];
  const splitter = new LineSplitter({
    line: (text, last) => events.push(last ? `last:${text}` : text),
  }, {
    maxBytes: 4,
    overflow: "split",
  });
  const encoder = new TextEncoder();
  for (const chunk of ["ab", "cdefghij", "k\nlong line in one chunk\nxy"]) {
    splitter.push(encoder.encode(chunk));
  }
  splitter.end();
  assert.deepEqual(events, ["abcd", "efgh", "ijk", "long line in one chunk", "last:xy"]);
});

Deno.test("LineSplitter joins a line's pieces once: each byte is decoded once (linear time)", () => {
  let decoded = 0;
  let calls = 0;
  const decoder = new class extends TextDecoder {
    override decode(input?: AllowSharedBufferSource, options?: TextDecodeOptions): string {
      decoded += input?.byteLength ?? 0;
      calls++;
      return super.decode(input, options);
    }
  }();
  const lines: string[] = [];
  const splitter = new LineSplitter({ line: (text) => lines.push(text) }, { decoder });
  const chunk = new TextEncoder().encode("z".repeat(4096));
  for (let i = 0; i < 2048; i++) splitter.push(chunk);
  splitter.push(new TextEncoder().encode("\nend"));
  splitter.end();
  assert.deepEqual(lines.map((line) => line.length), [8 * 1024 * 1024, 3]);
  assert.equal(decoded, 8 * 1024 * 1024 + 3, "no byte is decoded twice");
  assert.equal(calls, 2, "one decode per line");
});

/** Every line of `text`, pushed as chunks of `size` bytes (the last line unterminated if so). */
function frameBytes(bytes: Uint8Array, size: number, options: { ownsChunks?: boolean } = {}) {
  const events: string[] = [];
  const splitter = new LineSplitter({
    line: (text, last) => events.push(last ? `last:${text}` : text),
  }, options);
  for (let start = 0; start < bytes.length; start += size) {
    // A copy per chunk: an owned chunk is released (emptied) once pushed.
    splitter.push(bytes.slice(start, start + size));
  }
  splitter.end();
  return events;
}

Deno.test("LineSplitter keeps multi-byte characters whole whatever byte a chunk ends on", () => {
  const lines = ["é€𝄞 mixed ascii", "日本語のテキスト", "", "😀😀 end"];
  const bytes = new TextEncoder().encode(lines.join("\n") + "\n");
  for (const size of [1, 2, 3, 5, 7, 64]) {
    for (const ownsChunks of [false, true]) {
      assert.deepEqual(frameBytes(bytes, size, { ownsChunks }), lines, `chunks of ${size}`);
    }
  }
});

Deno.test("LineSplitter joins a line split across thousands of chunks, then reuses its buffer", () => {
  const long = "x".repeat(100_000) + "é".repeat(50_000);
  const bytes = new TextEncoder().encode(`${long}\nshort\n${long}`);
  const events = frameBytes(bytes, 97, { ownsChunks: true });
  assert.equal(events.length, 3);
  assert.equal(events[0], long);
  assert.equal(events[1], "short");
  assert.equal(events[2], `last:${long}`);
});

Deno.test("LineSplitter takes a huge line (64 MiB in 64 KiB chunks) whole", () => {
  const chunk = new Uint8Array(64 * 1024).fill(0x61);
  const lengths: number[] = [];
  const splitter = new LineSplitter({ line: (text) => lengths.push(text.length) }, {
    maxBytes: 256 * 1024 * 1024,
  });
  for (let i = 0; i < 1024; i++) splitter.push(chunk);
  splitter.push(new TextEncoder().encode("\nnext\n"));
  assert.deepEqual(lengths, [64 * 1024 * 1024, 4]);
});

Deno.test("LineSplitter frees the buffer of a large line before handing the line on", () => {
  let held: Uint8Array | undefined;
  const decoder = new class extends TextDecoder {
    override decode(input?: AllowSharedBufferSource, options?: TextDecodeOptions): string {
      if (input instanceof Uint8Array && input.byteLength > 100_000) held = input;
      return super.decode(input, options);
    }
  }();
  const seen: { length: number; freed: boolean }[] = [];
  const splitter = new LineSplitter({
    line: (text) =>
      seen.push({
        length: text.length,
        freed: (held?.buffer as ArrayBuffer | undefined)?.detached ?? false,
      }),
  }, { decoder });
  const chunk = new Uint8Array(10_000).fill(0x62);
  for (let i = 0; i < 30; i++) splitter.push(chunk);
  splitter.push(new Uint8Array([0x0a]));
  assert.deepEqual(seen, [{ length: 300_000, freed: true }]);
});

Deno.test("LineSplitter releases the chunks it owns and leaves the others alone", () => {
  const owned = new TextEncoder().encode("a\nb");
  const lent = new TextEncoder().encode("c\nd");
  const lines: string[] = [];
  const mine = new LineSplitter({ line: (text) => lines.push(text) }, { ownsChunks: true });
  mine.push(owned);
  const theirs = new LineSplitter({ line: (text) => lines.push(text) });
  theirs.push(lent);
  mine.end();
  theirs.end();
  assert.deepEqual(lines, ["a", "c", "b", "d"]);
  assert.equal((owned.buffer as ArrayBuffer).detached, true, "an owned chunk is freed once read");
  assert.equal(lent.byteLength, 3, "a lent chunk stays whole");
  // A view into a larger buffer is never detached: other views share it.
  const shared = new TextEncoder().encode("e\nf\n");
  const view = shared.subarray(0, 2);
  new LineSplitter({ line: () => {} }, { ownsChunks: true }).push(view);
  assert.equal((shared.buffer as ArrayBuffer).detached, false);
});

Deno.test("LineSplitter's bound holds across many chunks and exactly at the bound", () => {
  assert.deepEqual(frame(["12", "34", "56", "78", "\nok\n"], 8), ["12345678", "ok"]);
  assert.deepEqual(frame(["12", "34", "56", "78", "9\nok\n"], 8), ["too large", "ok"]);
  assert.deepEqual(frame(["é".repeat(4), "\n"], 8), ["éééé"]);
  assert.deepEqual(frame(["é".repeat(4), "x\n", "ok\n"], 8), ["too large", "ok"]);
});

Deno.test("LineSplitter with overflow split keeps the rest of a piece for the next one", () => {
  const events: string[] = [];
  const splitter = new LineSplitter({ line: (text) => events.push(text) }, {
    maxBytes: 3,
    overflow: "split",
  });
  for (const chunk of ["ab", "cd", "e", "fghij", "\n"]) {
    splitter.push(new TextEncoder().encode(chunk));
  }
  splitter.end();
  assert.deepEqual(events, ["abc", "def", "ghi", "j"]);
});
