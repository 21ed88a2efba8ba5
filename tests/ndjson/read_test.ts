/** readLines() / readLineBatches(): line endings, blank lines, chunking, long lines. */

import assert from "node:assert/strict";
import { type NdjsonLine, readLineBatches, readLines } from "../../lib/ndjson/read.ts";

const encoder = new TextEncoder();

/** A byte stream that delivers `bytes` in chunks of `size` bytes. */
function chunked(bytes: Uint8Array, size: number): ReadableStream<Uint8Array> {
  const chunks: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.slice(i, i + size));
  return ReadableStream.from(chunks);
}

const lines = (text: string, size = 1 << 16) =>
  Array.fromAsync(readLines(chunked(encoder.encode(text), size)));

const pairs = (found: NdjsonLine[]) => found.map((l) => [l.number, l.text]);

Deno.test("readLines() splits on \\n and \\r\\n and keeps a last line without newline", async () => {
  assert.deepEqual(pairs(await lines('{"a":1}\r\n{"b":2}\n{"c":3}')), [
    [1, '{"a":1}'],
    [2, '{"b":2}'],
    [3, '{"c":3}'],
  ]);
});

Deno.test("readLines() skips blank lines but counts them", async () => {
  assert.deepEqual(pairs(await lines("\n1\n\n  \t\r\n2\r\n\n")), [[2, "1"], [5, "2"]]);
  assert.deepEqual(await lines(""), []);
  assert.deepEqual(await lines("\n\n"), []);
});

Deno.test("readLines() gives the same lines whatever the chunk size", async () => {
  const text = '{"é":"😀"}\r\n\n[1,2]\n"x"\r\n{"long":"' + "y".repeat(300) + '"}';
  const expected = pairs(await lines(text));
  assert.equal(expected.length, 4);
  for (const size of [1, 2, 3, 5, 7, 64]) {
    assert.deepEqual(pairs(await lines(text, size)), expected, `chunk size ${size}`);
  }
});

Deno.test("readLines() decodes UTF-8 split across chunks and drops a byte-order mark", async () => {
  const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...encoder.encode('"€😀"\n')]);
  const found = await Array.fromAsync(readLines(chunked(bytes, 1)));
  assert.deepEqual(pairs(found), [[1, '"€😀"']]);
});

Deno.test("readLines() replaces invalid UTF-8 with U+FFFD", async () => {
  const bytes = new Uint8Array([0x22, 0xff, 0x22, 0x0a]);
  assert.deepEqual(pairs(await Array.fromAsync(readLines(chunked(bytes, 4)))), [[1, '"\ufffd"']]);
});

Deno.test("readLines() joins a very long line from many chunks", async () => {
  const long = "z".repeat(32 * 1024 * 1024);
  const found = await lines(`1\n"${long}"\n2`, 4096);
  assert.deepEqual(found.map((l) => l.number), [1, 2, 3]);
  assert.equal(found[1].text.length, long.length + 2);
});

Deno.test("readLineBatches() yields one batch per chunk, never an empty one", async () => {
  const stream = ReadableStream.from(["1\n2\n", "\n\n", "3", "\n4"].map((s) => encoder.encode(s)));
  const batches = await Array.fromAsync(readLineBatches(stream));
  assert.deepEqual(batches.map((b) => b.map((l) => l.text)), [["1", "2"], ["3"], ["4"]]);
});

Deno.test("readLineBatches() cancels the stream when the consumer stops early", async () => {
  let cancelled = false;
  let pulls = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulls++;
      controller.enqueue(encoder.encode(`${pulls}\n`));
    },
    cancel() {
      cancelled = true;
    },
  });
  for await (const batch of readLineBatches(stream)) {
    assert.equal(batch[0].text, "1");
    break;
  }
  assert.ok(cancelled);
});

Deno.test("readLines() reads a real child's stdout", async () => {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["eval", "for (let i = 1; i <= 3; i++) console.log(JSON.stringify({ i }));"],
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const found = await Array.fromAsync(readLines(child.stdout));
  await child.status;
  assert.deepEqual(pairs(found), [[1, '{"i":1}'], [2, '{"i":2}'], [3, '{"i":3}']]);
});
