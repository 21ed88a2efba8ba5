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
