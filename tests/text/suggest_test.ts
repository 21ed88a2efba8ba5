import assert from "node:assert/strict";
import { closest, editDistance } from "../../lib/text/suggest.ts";

Deno.test("editDistance() counts insertions, deletions, substitutions and swaps", () => {
  assert.equal(editDistance("repet", "repeat"), 1);
  assert.equal(editDistance("dmeo", "demo"), 1);
  assert.equal(editDistance("abc", "abc"), 0);
  assert.equal(editDistance("", "abc"), 3);
});

Deno.test("closest() names a likely typo's target and nothing for a far name", () => {
  assert.equal(closest("repet", ["count", "repeat"]), "repeat");
  assert.equal(closest("dmeo", ["demo", "everything"]), "demo");
  assert.equal(closest("zzz", ["demo", "everything"]), undefined);
});
