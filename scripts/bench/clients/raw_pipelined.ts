/**
 * The benchmark's reference for `jn put`: one session, one `tools/call` per
 * NDJSON record on stdin with up to K calls in flight, each result written to
 * stdout as one JSON line in input order (`{"input":N,…result}`). It writes
 * the JSON-RPC itself: no SDK, no validation — the ceiling a Deno client can
 * reach against the same server.
 *
 * Usage: deno run --no-config --allow-run raw_pipelined.ts K TOOL -- SERVER ARGV… < records.ndjson
 *
 * @module
 */

import { lines, orderedCalls } from "./ordered_calls.ts";

const [k, tool, _dashes, command, ...args] = Deno.args;
const concurrency = Number(k);
const encoder = new TextEncoder();
const child = new Deno.Command(command, {
  args,
  stdin: "piped",
  stdout: "piped",
  stderr: "inherit",
}).spawn();
const writer = child.stdin.getWriter();
const send = (message: object) =>
  writer.write(encoder.encode(JSON.stringify({ jsonrpc: "2.0", ...message }) + "\n"));

const waiting = new Map<number, (result: unknown) => void>();
const reading = (async () => {
  for await (const line of lines(child.stdout)) {
    const message = JSON.parse(line);
    waiting.get(message.id)?.(message.result ?? message.error);
    waiting.delete(message.id);
  }
})();
const call = (id: number, message: object) =>
  new Promise<unknown>((resolve) => {
    waiting.set(id, resolve);
    void send({ id, ...message });
  });

await call(0, {
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "raw", version: "1.0.0" },
  },
});
await send({ method: "notifications/initialized" });

await orderedCalls(
  concurrency,
  (record, n) => call(n, { method: "tools/call", params: { name: tool, arguments: record } }),
);
await writer.close();
await reading;
await child.status;
