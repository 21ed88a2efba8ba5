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

// Ordered output with a window of K calls in flight.
const window: Promise<string>[] = [];
let out: string[] = [];
let outBytes = 0;
let input = 0;
const flush = async () => {
  await Deno.stdout.write(encoder.encode(out.join("")));
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
    call(n, { method: "tools/call", params: { name: tool, arguments: JSON.parse(line) } })
      .then((result) => JSON.stringify({ input: n, ...result as object }) + "\n"),
  );
  if (window.length >= concurrency) await emit(await window.shift()!);
}
for (const pending of window) await emit(await pending);
await flush();
await writer.close();
await reading;
await child.status;

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
