/**
 * lib/profile/paths.ts and lib/profile/sha256.ts stand in for `node:path`
 * and `node:crypto` when profiles are read (so `jn profile list` does not
 * start Deno's Node compatibility layer): they must give the same answers.
 */

import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { posix, win32 } from "node:path";
import { isAbsolutePath, joinPath, joinWith } from "../../lib/profile/paths.ts";
import { Sha256, sha256Hex } from "../../lib/profile/sha256.ts";

const PARTS = [
  "",
  ".",
  "..",
  "a",
  "b.json",
  "/",
  "//",
  "/home/u",
  "/home/u/",
  "x/../y",
  "./z",
  "a//b",
  "..\\c",
  "C:",
  "C:\\",
  "C:\\Users\\u",
  "c:/x/y",
  "\\\\server\\share",
  "\\\\server\\share\\dir",
  "//srv/sh/d",
  "\\root",
  "dir\\",
];

let seed = 7;
function random(n: number): number {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed % n;
}

Deno.test("joinPath() and isAbsolutePath() answer as node:path", async (t) => {
  await t.step("POSIX: 3000 random joins", () => {
    for (let i = 0; i < 3000; i++) {
      const parts = Array.from({ length: 1 + random(4) }, () => PARTS[random(PARTS.length)]);
      assert.equal(joinWith(parts, false), posix.join(...parts), JSON.stringify(parts));
    }
  });
  await t.step("Windows: 3000 random joins", () => {
    for (let i = 0; i < 3000; i++) {
      const parts = Array.from({ length: 1 + random(4) }, () => PARTS[random(PARTS.length)]);
      assert.equal(joinWith(parts, true), win32.join(...parts), JSON.stringify(parts));
    }
  });
  await t.step("this platform's flavour", () => {
    const native = Deno.build.os === "windows" ? win32 : posix;
    for (const part of PARTS) {
      assert.equal(isAbsolutePath(part), native.isAbsolute(part), part);
      assert.equal(joinPath(part, "profiles", "mcp"), native.join(part, "profiles", "mcp"));
    }
  });
});

Deno.test("sha256Hex() and Sha256 answer as node:crypto", () => {
  const bytes = new Uint8Array(300).map((_, i) => (i * 37 + 11) & 0xff);
  for (const length of [0, 1, 55, 56, 63, 64, 65, 119, 120, 128, 200, 300]) {
    const data = bytes.subarray(0, length);
    assert.equal(sha256Hex(data), createHash("sha256").update(data).digest("hex"), `${length}`);
  }
  const text = 'name "é" ✓\n'.repeat(40);
  assert.equal(sha256Hex(text), createHash("sha256").update(text).digest("hex"));
  const theirs = createHash("sha256");
  const ours = new Sha256();
  for (let i = 0; i < 50; i++) {
    const piece = bytes.subarray(0, random(150));
    theirs.update(piece);
    ours.update(piece);
  }
  assert.equal(ours.hex(), theirs.digest("hex"));
});
