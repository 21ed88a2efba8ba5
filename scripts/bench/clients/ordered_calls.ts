/**
 * What the pipelined reference clients share (raw_pipelined.ts and
 * session_pipelined.ts): the lines of a byte stream, and one call per NDJSON
 * record on stdin with up to K calls in flight, each result written to
 * stdout as one JSON line in input order (`{"input":N,…result}`).
 *
 * @module
 */

/** The lines of a byte stream (the last one even without its newline). */
export async function* lines(stream: ReadableStream<Uint8Array>): AsyncGenerator<string> {
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

/**
 * Calls `call` with each record of stdin (and its number, from 1), at most
 * `concurrency` at once, and writes the results to stdout in input order.
 */
export async function orderedCalls(
  concurrency: number,
  call: (args: unknown, input: number) => Promise<unknown>,
): Promise<void> {
  const encoder = new TextEncoder();
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
      call(JSON.parse(line), n)
        .then((result) => JSON.stringify({ input: n, ...result as object }) + "\n"),
    );
    if (window.length >= concurrency) await emit(await window.shift()!);
  }
  for (const pending of window) await emit(await pending);
  await flush();
}
