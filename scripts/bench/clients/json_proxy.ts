/**
 * The floor of a proxy that reads each message, without an SDK: newline-
 * delimited JSON-RPC from the host parsed and written to the server as a
 * new string, and the same back, in batches of whatever each read held
 * (no schemas, no routing, no state). Between the byte pipe (pipe_proxy.ts)
 * and the SDK-only proxy: what parsing and re-serialising costs alone.
 *
 * Usage: deno run --allow-run json_proxy.ts -- SERVER ARGV…
 *
 * @module
 */

const [_dashes, command, ...args] = Deno.args;
const child = new Deno.Command(command, {
  args,
  stdin: "piped",
  stdout: "piped",
  stderr: "inherit",
}).spawn();

/** Reads `input` line by line; each read's messages, parsed and re-serialised, written at once. */
async function relay(input: ReadableStream<Uint8Array>, output: WritableStream<Uint8Array>) {
  const writer = output.getWriter();
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let partial = "";
  for await (const chunk of input) {
    const lines = (partial + decoder.decode(chunk, { stream: true })).split("\n");
    partial = lines.pop()!;
    const out = lines.filter((line) => line !== "").map((line) =>
      `${JSON.stringify(JSON.parse(line))}\n`
    ).join("");
    if (out !== "") await writer.write(encoder.encode(out));
  }
  await writer.close();
}

await Promise.all([
  relay(Deno.stdin.readable, child.stdin),
  relay(child.stdout, Deno.stdout.writable),
]);
