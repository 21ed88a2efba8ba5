import assert from "node:assert/strict";
import { LineFramer } from "../../lib/session/line_framer.ts";

function frame(chunks: string[], max = 1024) {
  const events: string[] = [];
  const framer = new LineFramer(max, {
    line: (text, last) => events.push(last ? `last:${text}` : text),
    tooLarge: () => events.push("too large"),
  });
  const encoder = new TextEncoder();
  for (const chunk of chunks) framer.push(encoder.encode(chunk));
  framer.end();
  return events;
}

Deno.test("LineFramer joins lines across chunks and delivers the unterminated last one", () => {
  assert.deepEqual(frame(["a\nb", "c", "d\n\ne", "é\nf"]), ["a", "bcd", "", "eé", "last:f"]);
  assert.deepEqual(frame(["x\n"]), ["x"]);
});

Deno.test("LineFramer drops a line beyond the bound up to its newline, then goes on", () => {
  assert.deepEqual(frame(["12345", "6789\nok\n"], 8), ["too large", "ok"]);
  assert.deepEqual(frame(["123456789\nok\n"], 8), ["too large", "ok"]);
  assert.deepEqual(frame(["12345678\n"], 8), ["12345678"]);
  assert.deepEqual(frame(["1234", "56789", "more", "\nok"], 8), ["too large", "last:ok"]);
});
