/**
 * The reference client of the put benchmark: it starts the same server argv
 * jn would, does the 2025 handshake by hand, then writes pre-built
 * `tools/call` JSON-RPC lines straight to the server's stdin and counts the
 * answers on its stdout. No SDK, no validation, no per-call allocation
 * beyond the lines themselves: what it measures is the server's own limit.
 *
 * `window` bounds the calls in flight (like `jn put --concurrency`); 0 means
 * no bound: every line is written at once (the physical limit).
 *
 * @module
 */

import type { StdioLaunch } from "../../lib/launch/spec.ts";

/** One measurement of the reference client. */
export interface RawResult {
  calls: number;
  /** First request written → last answer read, in ms. */
  callMs: number;
  /** Process start → exit, in ms. */
  totalMs: number;
}

/** Calls `tool` once per argument object over the server `launch` describes. */
export async function runRawClient(
  launch: StdioLaunch,
  options: { tool: string; args: Record<string, unknown>[]; window: number },
): Promise<RawResult> {
  const started = performance.now();
  const child = new Deno.Command(launch.command, {
    args: launch.args,
    cwd: launch.cwd,
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const writer = child.stdin.getWriter();
  const reader = child.stdout.getReader();
  const encoder = new TextEncoder();
  let answers = 0;
  let wanted = 0;
  let notify: (() => void) | undefined;
  const reading = (async () => {
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      for (const byte of chunk.value) if (byte === 10) answers++;
      if (answers >= wanted) notify?.();
    }
  })();
  const until = (count: number) =>
    answers >= count ? Promise.resolve() : new Promise<void>((resolve) => {
      wanted = count;
      notify = resolve;
    });

  const init = {
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "bench-raw", version: "0" },
    },
  };
  await writer.write(encoder.encode(JSON.stringify(init) + "\n"));
  await until(1);
  await writer.write(encoder.encode('{"jsonrpc":"2.0","method":"notifications/initialized"}\n'));
  const lines = options.args.map((args, i) =>
    encoder.encode(
      JSON.stringify({
        jsonrpc: "2.0",
        id: i + 1,
        method: "tools/call",
        params: { name: options.tool, arguments: args },
      }) + "\n",
    )
  );
  const n = lines.length;
  const callStart = performance.now();
  if (options.window <= 0) {
    const all = new Uint8Array(lines.reduce((sum, line) => sum + line.length, 0));
    let offset = 0;
    for (const line of lines) {
      all.set(line, offset);
      offset += line.length;
    }
    await Promise.all([writer.write(all), until(n + 1)]);
  } else {
    let sent = 0;
    while (sent < n) {
      const upto = Math.min(n, answers - 1 + options.window);
      if (upto > sent) {
        await writer.write(concat(lines.slice(sent, upto)));
        sent = upto;
      }
      await until(Math.min(answers + 1, n + 1));
    }
    await until(n + 1);
  }
  const callMs = performance.now() - callStart;
  await writer.close();
  await reading;
  await child.status;
  return { calls: n, callMs, totalMs: performance.now() - started };
}

function concat(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0];
  const out = new Uint8Array(parts.reduce((sum, p) => sum + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
