/**
 * digestHex() (Web Crypto) gives the digests `node:crypto` gives, for bytes
 * and for text (UTF-8), at the lengths where SHA-2's padding changes.
 */

import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { digestHex } from "../../lib/text/digest.ts";

Deno.test("digestHex() answers as node:crypto", async () => {
  const bytes = new Uint8Array(300).map((_, i) => (i * 37 + 11) & 0xff);
  for (const length of [0, 1, 55, 56, 63, 64, 65, 111, 112, 119, 120, 128, 200, 300]) {
    const data = bytes.subarray(0, length);
    assert.equal(await digestHex(data), createHash("sha256").update(data).digest("hex"));
    assert.equal(
      await digestHex(data, "SHA-512"),
      createHash("sha512").update(data).digest("hex"),
      `${length}`,
    );
  }
  const text = 'name "é" ✓\n'.repeat(40);
  assert.equal(await digestHex(text), createHash("sha256").update(text).digest("hex"));
});
