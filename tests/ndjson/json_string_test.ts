import assert from "node:assert/strict";
import { JsonStringContent } from "../../lib/ndjson/json_string.ts";

/** The places where a literal's content (UTF-8) may be cut: not inside an escape. */
function cutPlaces(content: Uint8Array): number[] {
  const places: number[] = [];
  for (let i = 0; i <= content.length;) {
    places.push(i);
    if (content[i] === 0x5c) i += content[i + 1] === 0x75 ? 6 : 2;
    else i++;
  }
  return places;
}

const CONTENTS = [
  String.raw`plain ascii`,
  String.raw`quotes \" backslash \\ slash \/ \b\f\n\r\t`,
  String.raw`\u0041\u00e9\u20AC\uFEFF\u0000 é€😀 raw`,
  String.raw`pair \ud83d\ude00, lone high \ud800 then text, lone low \udc00, \ud800\ud800\udc00`,
  String.raw`ends with a lone high \udbff`,
  String.raw`\udfff starts with a lone low`,
  "\uFEFF a byte-order mark first",
];

Deno.test("JsonStringContent gives what JSON.parse gives, cut at any place outside an escape", () => {
  const encoder = new TextEncoder();
  const content = new JsonStringContent();
  for (const literal of CONTENTS) {
    const expected = JSON.parse(`"${literal}"`);
    const bytes = encoder.encode(literal);
    for (const cut of cutPlaces(bytes)) {
      assert.ok(content.push(bytes.subarray(0, cut)));
      assert.ok(content.push(bytes.subarray(cut)));
      assert.equal(content.end(), expected, `${literal} cut at ${cut}`);
    }
  }
});

Deno.test("JsonStringContent keeps UTF-8 bytes cut mid-character, and decodes invalid ones as a whole decode does", () => {
  const bytes = new Uint8Array([0xc3, 0xa9, 0xf0, 0x9f, 0x98, 0x80, 0xe2, 0x41, 0x80, 0xc3]);
  const expected = new TextDecoder().decode(bytes);
  const content = new JsonStringContent();
  for (let cut = 0; cut <= bytes.length; cut++) {
    content.push(bytes.subarray(0, cut));
    content.push(bytes.subarray(cut));
    assert.equal(content.end(), expected, `cut at ${cut}`);
  }
});

Deno.test("JsonStringContent refuses a bad escape", () => {
  const encoder = new TextEncoder();
  for (const bad of [String.raw`\x`, String.raw`\u12g4`, String.raw`\U0041`, "\\\t"]) {
    const content = new JsonStringContent();
    assert.equal(content.push(encoder.encode(`ok ${bad} ok`)), false, bad);
    assert.throws(() => JSON.parse(`"ok ${bad} ok"`));
  }
});

Deno.test("JsonStringContent refuses content that ends inside an escape, not a NUL in its place", () => {
  for (const cut of ["abc\\", "abc\\u00", "\\"]) {
    const content = new JsonStringContent();
    assert.equal(content.push(new TextEncoder().encode(cut)), false, cut);
  }
});
