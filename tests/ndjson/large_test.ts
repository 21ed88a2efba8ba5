/**
 * A record with a huge string is written in pieces (lib/ndjson/large.ts),
 * never as one string: the bytes must be exactly those of the whole-string
 * path, `jsonSafe(JSON.stringify(record)) + "\n"`, in order with the
 * records around it.
 */

import assert from "node:assert/strict";
import { largeJsonPieces } from "../../lib/ndjson/large.ts";
import { NdjsonWriter } from "../../lib/ndjson/write.ts";
import { jsonSafe } from "../../lib/output/visible.ts";

const whole = (record: unknown) => jsonSafe(JSON.stringify(record));

Deno.test("largeJsonPieces() gives the bytes of jsonSafe(JSON.stringify())", async (t) => {
  const awkward = 'a"b\\c\n\u0001\u007f\u2028é😀\u202e\ud800x\udc00y😀😀"';
  const records: unknown[] = [
    { type: "tool_result", text: awkward.repeat(9), mimeType: "text/plain" },
    [awkward.repeat(5), { nested: { deeper: [awkward.repeat(3), 1, null] } }, "short"],
    { a: "😀".repeat(20), b: undefined, c: () => 1, d: { toJSON: () => "x".repeat(40) } },
    awkward.repeat(4),
  ];
  for (const pieceChars of [7, 8, 16, 33]) {
    await t.step(`pieces of ${pieceChars} units`, () => {
      for (const record of records) {
        const pieces = largeJsonPieces(record, pieceChars);
        assert.ok(pieces !== undefined);
        const list = [...pieces];
        assert.ok(list.length > 3);
        assert.equal(list.join(""), whole(record));
        assert.ok(list.every((piece) => piece.length <= 6 * pieceChars + 64));
      }
    });
  }
  await t.step("small records are left to the whole-string path", () => {
    assert.equal(largeJsonPieces({ text: "short" }, 7), undefined);
    assert.equal(largeJsonPieces({ text: "x".repeat(100) }), undefined);
  });
});

Deno.test("NdjsonWriter writes a record with a 3 MB string as the whole-string path would", async () => {
  const chunks: Uint8Array[] = [];
  const writer = {
    write: (bytes: Uint8Array) => {
      chunks.push(bytes.slice());
      return Promise.resolve(bytes.length);
    },
  };
  const big = { type: "tool_result", text: '"quoted" \u2028 😀 '.repeat(200_000) };
  const records = [{ n: 1 }, big, { n: 2 }, big, { n: 3 }];
  const out = new NdjsonWriter(writer);
  for (const record of records) await out.write(record);
  out.push(`{"n":4}\n`);
  await out.flush();
  const expected = records.map((r) => whole(r) + "\n").join("") + `{"n":4}\n`;
  const bytes = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  assert.equal(new TextDecoder().decode(bytes), expected);
});
