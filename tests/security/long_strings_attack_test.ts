/**
 * Attacks on the long-string filter of a server's stdout
 * (lib/ndjson/long_strings.ts, json_string.ts): what an untrusted server can
 * make jn hold or spend with one line, beside what `JSON.parse` of it costs.
 */
import assert from "node:assert/strict";
import { LongStrings } from "../../lib/ndjson/long_strings.ts";
import { LineSplitter } from "../../lib/ndjson/split.ts";

const encoder = new TextEncoder();

Deno.test("a string of lone surrogates costs about its own size while it arrives, not an object per surrogate", () => {
  const count = 3_000_000; // 18 MB of \ud800 escapes: a 6 MB string (two bytes per code unit)
  const head = encoder.encode(`{"jsonrpc":"2.0","id":1,"result":{"text":"`);
  const body = encoder.encode("\\ud800".repeat(count));
  const messages: unknown[] = [];
  const strings = new LongStrings((bytes) => splitter.push(bytes));
  // Parsed as it comes, as the transport does (the strings taken out are the line's).
  const splitter = new LineSplitter({ line: (line) => messages.push(strings.parse(line)) });
  const before = Deno.memoryUsage().heapUsed;
  strings.push(head.slice());
  for (let at = 0; at < body.length; at += 64 * 1024) {
    strings.push(body.slice(at, at + 64 * 1024));
  }
  const held = Deno.memoryUsage().heapUsed - before;
  // An object per lone surrogate held ~100 MB here (4 GB for a 256 MiB line).
  assert.ok(held < 60e6, `held ${Math.round(held / 1e6)} MB of heap for a 6 MB string`);
  strings.push(encoder.encode('"}}\n'));
  assert.equal(messages.length, 1);
  const message = messages[0] as { result: { text: string } };
  assert.equal(message.result.text, "\ud800".repeat(count));
});
