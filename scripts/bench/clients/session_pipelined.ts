/**
 * The SDK floor of `jn put`: what raw_pipelined.ts does (one session, one
 * `tools/call` per NDJSON record on stdin, up to K calls in flight, each
 * result written to stdout as one JSON line in input order,
 * `{"input":N,…result}`), but through jn's session layer (lib/session:
 * the MCP SDK's client over jn's stdio channel) instead of hand-written
 * JSON-RPC. No CLI, no URI, no argument conversion or validation, no record
 * building: the gap between this row and the raw client is the SDK's and the
 * session's per-request cost; the gap between `jn put` and this row is jn's.
 * Like `jn put`, it lists the tools once before the first call.
 *
 * Usage: deno run -A session_pipelined.ts K TOOL -- SERVER ARGV… < records.ndjson
 *
 * @module
 */

import { openSession } from "../../../lib/session/session.ts";

const [k, tool, _dashes, command, ...args] = Deno.args;
const concurrency = Number(k);
const encoder = new TextEncoder();
const session = await openSession(
  { transport: "stdio", command, args, env: {}, label: command },
  { timeoutMs: 60_000, connectTimeoutMs: 60_000, callerEnv: Deno.env.toObject() },
);
try {
  await session.listTools();
  // Ordered output with a window of K calls in flight.
  const window: Promise<string>[] = [];
  let out: string[] = [];
  let outBytes = 0;
  let input = 0;
  const flush = async () => {
    const bytes = encoder.encode(out.join(""));
    let offset = 0;
    while (offset < bytes.length) offset += await Deno.stdout.write(bytes.subarray(offset));
    out = [];
    outBytes = 0;
  };
  const emit = async (text: string) => {
    out.push(text);
    outBytes += text.length;
    if (outBytes > 65536) await flush();
  };
  for await (const line of lines(Deno.stdin.readable)) {
    if (line.trim() === "") continue;
    const n = ++input;
    window.push(
      session.callTool(tool, JSON.parse(line))
        .then((result) => JSON.stringify({ input: n, ...result }) + "\n"),
    );
    if (window.length >= concurrency) await emit(await window.shift()!);
  }
  for (const pending of window) await emit(await pending);
  await flush();
} finally {
  await session.close();
}

async function* lines(stream: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buffered = "";
  for await (const chunk of stream) {
    buffered += decoder.decode(chunk, { stream: true });
    const parts = buffered.split("\n");
    buffered = parts.pop()!;
    yield* parts;
  }
  if (buffered) yield buffered;
}
