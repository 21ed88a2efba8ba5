/**
 * lib/profile/paths.ts stands in for `node:path` when profiles are read (so
 * `jn profile list` does not start Deno's Node compatibility layer): it must
 * give the same answers.
 */

import assert from "node:assert/strict";
import { posix, win32 } from "node:path";
import { isAbsolutePath, joinPath, joinWith } from "../../lib/profile/paths.ts";

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
