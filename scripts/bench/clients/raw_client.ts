/**
 * The benchmark's reference one-shot client: the floor a Deno MCP client can
 * reach. It writes the JSON-RPC lines itself (initialize; then initialized +
 * one request), prints the request's result as one JSON line, closes the
 * server's stdin and waits for it to exit. No SDK, no validation, no argv
 * parsing beyond the mode.
 *
 * Usage: deno run --no-config --allow-run raw_client.ts list|call[=KEY]|rows=MB -- SERVER ARGV…
 * (`call` is `echo {KEY: "hi"}`, KEY defaulting to `text`.)
 *
 * @module
 */

const [mode, _dashes, command, ...args] = Deno.args;
const request = mode === "list"
  ? { method: "tools/list", params: {} }
  : mode.startsWith("rows=")
  ? { method: "tools/call", params: { name: "rows", arguments: { mb: Number(mode.slice(5)) } } }
  : {
    method: "tools/call",
    params: { name: "echo", arguments: { [mode.split("=")[1] ?? "text"]: "hi" } },
  };

const child = new Deno.Command(command, {
  args,
  stdin: "piped",
  stdout: "piped",
  stderr: "inherit",
}).spawn();
const writer = child.stdin.getWriter();
const encoder = new TextEncoder();
const send = (message: unknown) =>
  writer.write(encoder.encode(JSON.stringify({ jsonrpc: "2.0", ...message as object }) + "\n"));

const responses = readLines(child.stdout);
await send({
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "raw", version: "1.0.0" },
  },
});
await until(1);
await send({ method: "notifications/initialized" });
await send({ id: 2, ...request });
const result = await until(2);
await Deno.stdout.write(encoder.encode(JSON.stringify(result) + "\n"));
await writer.close();
await child.status;

async function until(id: number): Promise<unknown> {
  for (;;) {
    const { value, done } = await responses.next();
    if (done) throw new Error("the server closed stdout");
    const message = JSON.parse(value);
    if (message.id === id) return message.result ?? message.error;
  }
}

async function* readLines(stream: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  // Byte chunks until a newline: linear in the size of a line, however large.
  const decoder = new TextDecoder();
  let parts: Uint8Array[] = [];
  for await (const chunk of stream) {
    let start = 0;
    let newline = chunk.indexOf(10);
    while (newline !== -1) {
      parts.push(chunk.subarray(start, newline));
      yield decoder.decode(concat(parts));
      parts = [];
      start = newline + 1;
      newline = chunk.indexOf(10, start);
    }
    if (start < chunk.length) parts.push(chunk.slice(start));
  }
}

function concat(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0];
  const joined = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    joined.set(part, offset);
    offset += part.length;
  }
  return joined;
}
