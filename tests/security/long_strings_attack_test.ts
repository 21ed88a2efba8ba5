/**
 * Attacks on the long-string filter of a server's stdout
 * (lib/ndjson/long_strings.ts, json_string.ts): what an untrusted server can
 * make jn hold with one line, beside what the line itself costs. Each
 * measure runs in a fresh process that can collect its garbage first
 * (`--expose-gc`), so that other tests' garbage is not counted.
 */
import assert from "node:assert/strict";
import { ROOT } from "../helpers.ts";

/** Runs `body` (a module's text, with `gc` and `heap()` defined) in a new Deno; its stdout. */
async function measure(body: string): Promise<string> {
  const prelude = `
import { LongStrings } from "${ROOT}/lib/ndjson/long_strings.ts";
import { LineSplitter } from "${ROOT}/lib/ndjson/split.ts";
const encoder = new TextEncoder();
const heap = () => { (globalThis as unknown as { gc(): void }).gc(); return Deno.memoryUsage().heapUsed; };
`;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--no-config", "--v8-flags=--expose-gc", "-"],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = out.stdin.getWriter();
  await writer.write(new TextEncoder().encode(prelude + body));
  await writer.close();
  const result = await out.output();
  const stderr = new TextDecoder().decode(result.stderr);
  assert.equal(result.code, 0, stderr);
  return new TextDecoder().decode(result.stdout).trim();
}

Deno.test("a string of lone surrogates costs about its own size while it arrives, not an object per surrogate", async () => {
  // 3,000,000 lone surrogates: 18 MB of \ud800 escapes, a 6 MB string (two bytes per code unit).
  const out = await measure(`
const count = 3_000_000;
const head = encoder.encode('{"jsonrpc":"2.0","id":1,"result":{"text":"');
const body = encoder.encode("\\\\ud800".repeat(count));
const messages: unknown[] = [];
const strings = new LongStrings((bytes) => splitter.push(bytes));
// Parsed as it comes, as the transport does (the strings taken out are the line's).
const splitter = new LineSplitter({ line: (line) => messages.push(strings.parse(line)) });
const before = heap();
strings.push(head.slice());
for (let at = 0; at < body.length; at += 64 * 1024) strings.push(body.slice(at, at + 64 * 1024));
const held = heap() - before;
strings.push(encoder.encode('"}}\\n'));
const text = (messages[0] as { result: { text: string } }).result.text;
console.log(JSON.stringify({ held, same: messages.length === 1 && text === "\\ud800".repeat(count) }));
`);
  const { held, same } = JSON.parse(out);
  assert.equal(same, true, "the string is JSON.parse's");
  // An object per lone surrogate held ~220 MB here (~4 GB for a 256 MiB line).
  assert.ok(held < 24e6, `held ${Math.round(held / 1e6)} MB of heap for a 6 MB string`);
});

Deno.test("a line over the bound lets go of the strings taken out of it, though its newline never comes", async () => {
  const out = await measure(`
const maxBytes = 48 * 1024 * 1024;
let tooLarge = 0;
const strings = new LongStrings(() => {}, { minBytes: 1024, maxBytes, tooLarge: () => tooLarge++ });
// Long strings, one after another in one array that never ends: ~1.4 KB each as text.
const piece = encoder.encode('"' + "€".repeat(700) + '",');
const chunk = new Uint8Array(64 * 1024 - (64 * 1024) % piece.length);
for (let at = 0; at < chunk.length; at += piece.length) chunk.set(piece, at);
const before = heap();
strings.push(encoder.encode("["));
for (let sent = 0; sent < maxBytes + 8 * 1024 * 1024; sent += chunk.length) strings.push(chunk.slice());
console.log(JSON.stringify({ held: heap() - before, tooLarge }));
`);
  const { held, tooLarge } = JSON.parse(out);
  assert.equal(tooLarge, 1);
  // The strings of the dropped line were held until a newline: ~47 MB here.
  assert.ok(held < 8e6, `held ${Math.round(held / 1e6)} MB of heap after the line was dropped`);
});
