/** redact(): secrets hidden in every form a program prints them. */

import assert from "node:assert/strict";
import { redact, redactDeep, secretForms, unredactable } from "../../lib/output/redact.ts";

const SECRET = 's3cr3t/"val+ue Z';
const base64 = (text: string) => btoa(String.fromCharCode(...new TextEncoder().encode(text)));

Deno.test("redact() hides a secret as it is, JSON-escaped and URL-encoded", () => {
  const url = encodeURIComponent(SECRET);
  const forms = [
    SECRET,
    JSON.stringify(SECRET).slice(1, -1),
    url,
    url.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()),
    url.replaceAll("%20", "+"),
  ];
  for (const form of forms) {
    assert.equal(redact(`before ${form} after`, [SECRET]), "before *** after", form);
  }
});

Deno.test("redact() hides a secret inside base64, whatever surrounds it (Basic auth)", () => {
  for (const prefix of ["", "u", "us", "user:", "x:", "longer-user-name:"]) {
    for (const suffix of ["", ":pass", "x"]) {
      const encoded = base64(prefix + SECRET + suffix);
      // The characters fully determined by the secret's own bytes must go.
      const at = new TextEncoder().encode(prefix).length;
      const length = new TextEncoder().encode(SECRET).length;
      const start = Math.ceil((8 * at) / 6);
      const end = Math.floor((8 * (at + length)) / 6);
      const expected = `${encoded.slice(0, start)}***${encoded.slice(end)}`;
      assert.equal(
        redact(`Authorization: Basic ${encoded}`, [SECRET]),
        `Authorization: Basic ${expected}`,
        prefix + "|" + suffix,
      );
      const urlSafe = encoded.replaceAll("+", "-").replaceAll("/", "_");
      assert.ok(redact(urlSafe, [SECRET]).includes("***"), `base64url ${prefix}|${suffix}`);
    }
  }
});

Deno.test("redact() leaves values shorter than 4 characters alone, and says which", () => {
  assert.equal(redact("on and on, 1 2 3", ["on", "1"]), "on and on, 1 2 3");
  assert.deepEqual(unredactable(["on", "long-enough", "abc"]), ["on", "abc"]);
  assert.equal(redact("abcd", ["abcd"]), "***");
});

Deno.test("redact() prefers the longest secret, and leaves no piece of it", () => {
  assert.equal(redact("key=abcdefgh", ["abcd", "abcdefgh"]), "key=***");
  assert.equal(redact("a.b*c(d)", ["a.b*c(d)"]), "***", "regex characters are literal");
});

Deno.test("redactDeep() redacts every string of a value, keys too, without changing it", () => {
  const value = { [`k-${SECRET}`]: [`v ${SECRET}`, 1, null, { n: JSON.stringify(SECRET) }] };
  const copy = structuredClone(value);
  assert.deepEqual(redactDeep(value, [SECRET]), { "k-***": ["v ***", 1, null, { n: '"***"' }] });
  assert.deepEqual(value, copy);
});

Deno.test("secretForms() holds the WHATWG URL serialisations of a secret (red team, #12)", () => {
  const secret = "pass word'{x}/é";
  const forms = secretForms(secret);
  for (const part of ["path", "search", "hash", "username"] as const) {
    const url = new URL("https://h.example/");
    if (part === "path") url.pathname = `/${secret}`;
    if (part === "search") url.search = `?${secret}`;
    if (part === "hash") url.hash = `#${secret}`;
    if (part === "username") url.username = secret;
    const href = url.href;
    assert.ok(forms.some((form) => href.includes(form)), `${part}: ${href}`);
  }
  const path = new URL(`https://h.example/a/${secret}`).href;
  assert.equal(redact(`GET ${path}`, [secret]).includes("word"), false, redact(path, [secret]));
});
