/** visible(), terminalSafe(), jsonSafe(): control characters from servers made harmless. */

import assert from "node:assert/strict";
import { jsonSafe, terminalSafe, visible, visibleDeep } from "../../lib/output/visible.ts";

const HOSTILE = "\x1b]0;pwned\x07\x1b[31mred\r\x9b2J\u202eevil\u2066\x7f";
const SHOWN = String.raw`\x1b]0;pwned\x07\x1b[31mred\x0d\x9b2J\u202eevil\u2066\x7f`;
/** Anything a terminal would act on, newline and tab aside. */
const RAW_CONTROL =
  // deno-lint-ignore no-control-regex
  /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

Deno.test("visible() shows C0, DEL, C1 and bidirectional controls as escapes", () => {
  assert.equal(visible(HOSTILE), SHOWN);
  assert.doesNotMatch(visible(HOSTILE), RAW_CONTROL);
  assert.equal(
    visible("\u200e\u200f\u061c\u2028\u2029"),
    String.raw`\u200e\u200f\u061c\u2028\u2029`,
  );
  assert.equal(visible("\x00\x08\x0b\x0c\x1f"), String.raw`\x00\x08\x0b\x0c\x1f`);
});

Deno.test("visible() keeps text readable: newlines, tabs, backslashes, other Unicode", () => {
  const text = "a\tb\nc \\x1b C:\\path é 中文 🙂";
  assert.equal(visible(text), text);
  assert.equal(visible("line\r\nnext\r\n"), "line\nnext\n");
  assert.equal(visible("a\nb\r\nc", { oneLine: true }), String.raw`a\nb\nc`);
});

Deno.test("terminalSafe() escapes everything but jn's own colours, and only when colour is on", () => {
  const own =
    "\x1b[31mjn:\x1b[39m \x1b[2mdim\x1b[22m \x1b[1mb\x1b[22m \x1b[36mc\x1b[39m \x1b[33my\x1b[39m";
  assert.equal(terminalSafe(own, true), own);
  assert.doesNotMatch(terminalSafe(own, false), RAW_CONTROL);
  assert.equal(terminalSafe(`x ${HOSTILE}\n`, false), `x ${SHOWN}\n`);
  // With colour on, an exact colour code of jn's passes even from a server (this is only the
  // backstop: server text is made visible where it is formatted); nothing else does.
  assert.equal(
    terminalSafe(`x ${HOSTILE}\n`, true),
    `x ${SHOWN.replace(String.raw`\x1b[31m`, "\x1b[31m")}\n`,
  );
  assert.equal(terminalSafe("\x1b[2J\x1b[8m\r", true), String.raw`\x1b[2J\x1b[8m\x0d`);
  assert.equal(terminalSafe(visible(HOSTILE), true), SHOWN, "already visible text is unchanged");
});

Deno.test("jsonSafe() escapes what JSON.stringify leaves raw, and parses back to the same value", () => {
  const value = { text: `${HOSTILE} \u2028\u2029 é`, [`k${HOSTILE}`]: [HOSTILE] };
  const json = JSON.stringify(value);
  assert.match(json, RAW_CONTROL, "JSON.stringify leaves C1, DEL, bidi and U+2028 raw");
  const safe = jsonSafe(json);
  assert.doesNotMatch(safe, RAW_CONTROL);
  assert.deepEqual(JSON.parse(safe), value);
  assert.ok(safe.includes(String.raw`\u001b]0;pwned\u0007`), "C0 escaped once by JSON.stringify");
  assert.ok(!safe.includes("\\\\u"), "nothing is escaped twice");
  assert.equal(jsonSafe('{"a":"plain"}'), '{"a":"plain"}');
});

Deno.test("visibleDeep() makes every string of a value visible, keys too", () => {
  assert.deepEqual(visibleDeep({ [`k\x1b`]: ["a\nb", 1, null, { c: "\x9b" }] }), {
    [String.raw`k\x1b`]: [String.raw`a\nb`, 1, null, { c: String.raw`\x9b` }],
  });
});

Deno.test("visible() and jsonSafe() show tag characters, soft hyphen, U+180E, U+206A–U+206F (red team, #12)", () => {
  const hidden = "a\u00adb\u180ec\u206ad\u206fe\u{e0001}\u{e0041}\u{e007f}f";
  assert.equal(
    visible(hidden),
    String.raw`a\u00adb\u180ec\u206ad\u206fe\u{e0001}\u{e0041}\u{e007f}f`,
  );
  assert.equal(terminalSafe(hidden, true), visible(hidden));
  const json = JSON.stringify({ t: hidden });
  const safe = jsonSafe(json);
  assert.equal(
    safe,
    String.raw`{"t":"a\u00adb\u180ec\u206ad\u206fe\udb40\udc01\udb40\udc41\udb40\udc7ff"}`,
  );
  assert.deepEqual(JSON.parse(safe), { t: hidden });
  // Neighbours stay as they are: emoji, é, CJK.
  assert.equal(visible("é 中 🙂 \u00ac"), "é 中 🙂 \u00ac");
});
