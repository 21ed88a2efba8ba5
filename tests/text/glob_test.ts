/**
 * The globs of `allow_tools`/`deny_tools`: `*` and `?` as documented, a
 * whole-name and case-sensitive match, `\` escapes, and the reserved
 * characters refused with the reason.
 */
import assert from "node:assert/strict";
import { globMatcher, globProblem } from "../../lib/text/glob.ts";

const matches = (pattern: string, name: string) => globMatcher(pattern)(name);

Deno.test("globMatcher(): * is any run (the empty one too), ? exactly one character", () => {
  assert.ok(matches("get_*", "get_user"));
  assert.ok(matches("get_*", "get_"));
  assert.ok(matches("*_file", "write_file"));
  assert.ok(matches("*", ""));
  assert.ok(matches("a*b*c", "a-x-b-y-c"));
  assert.ok(matches("get_?", "get_a"));
  assert.ok(!matches("get_?", "get_"));
  assert.ok(!matches("get_?", "get_ab"));
  // One code point, even outside the BMP; newlines too (a server's names are data).
  assert.ok(matches("?", "🦀"));
  assert.ok(matches("a*b", "a\nb"));
});

Deno.test("globMatcher(): the whole name, case-sensitively, with regex characters literal", () => {
  assert.ok(!matches("search", "search_v2"));
  assert.ok(!matches("search", "research"));
  assert.ok(!matches("Search", "search"));
  assert.ok(matches("a.b+c(d)|e^$/", "a.b+c(d)|e^$/"));
  assert.ok(!matches("a.b", "axb"));
});

Deno.test("globMatcher(): a backslash makes the next character literal", () => {
  assert.ok(matches("what\\?", "what?"));
  assert.ok(!matches("what\\?", "whats"));
  assert.ok(matches("star\\*", "star*"));
  assert.ok(!matches("star\\*", "stars"));
  assert.ok(matches("back\\\\slash", "back\\slash"));
  assert.ok(matches("\\[x\\]", "[x]"));
});

Deno.test("globProblem(): empty, a lone trailing backslash and [ ] { } are refused", () => {
  assert.equal(globProblem("get_*"), undefined);
  assert.equal(globProblem(""), "it is empty");
  assert.match(globProblem("a\\") ?? "", /ends with a lone \\/);
  for (const char of ["[", "]", "{", "}"]) {
    assert.equal(globProblem(`a${char}b`), `"${char}" is reserved (write \\${char} to match it)`);
  }
  assert.equal(globProblem("a\\[b"), undefined);
  assert.throws(() => globMatcher("[ab]"), TypeError);
});
