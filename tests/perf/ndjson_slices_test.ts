/**
 * NdjsonWriter encodes a huge record a slice at a time (so its bytes never
 * all exist beside its text) and the bytes are exactly the record's UTF-8,
 * including astral characters whose surrogate pairs straddle a slice edge.
 */

import assert from "node:assert/strict";
import { NdjsonWriter } from "../../lib/ndjson/write.ts";

class Collect {
  chunks: Uint8Array[] = [];
  write(bytes: Uint8Array): Promise<number> {
    this.chunks.push(bytes.slice());
    return Promise.resolve(bytes.length);
  }
  text(): string {
    const total = this.chunks.reduce((n, c) => n + c.length, 0);
    const joined = new Uint8Array(total);
    let offset = 0;
    for (const chunk of this.chunks) {
      joined.set(chunk, offset);
      offset += chunk.length;
    }
    return new TextDecoder("utf-8", { fatal: true }).decode(joined);
  }
}

Deno.test("a record of several MiB is written in slices, byte-exact", async (t) => {
  await t.step("surrogate pairs across every slice edge survive", async () => {
    const out = new Collect();
    const writer = new NdjsonWriter(out);
    const record = { t: "a" + "😀".repeat(1_500_000) + "é" };
    await writer.write(record);
    await writer.flush();
    assert.ok(out.chunks.length > 1, "written in several slices");
    assert.ok(out.chunks.every((c) => c.length <= 4 * (1 << 20)), "no slice is the whole record");
    assert.equal(out.text(), JSON.stringify(record) + "\n");
  });
  await t.step("small records are still one buffered write", async () => {
    const out = new Collect();
    const writer = new NdjsonWriter(out);
    for (let i = 0; i < 100; i++) await writer.write({ i });
    await writer.flush();
    assert.equal(out.chunks.length, 1);
    assert.equal(out.text().split("\n").length, 101);
  });
});
