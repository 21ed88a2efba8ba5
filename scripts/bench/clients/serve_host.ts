// deno-lint-ignore-file no-console
/**
 * A host for the serve benchmark: the SDK client over stdio to a command (a
 * server, or a proxy in front of it), timing what a host sees — the median
 * of `CALLS` sequential `tools/call` round trips after a warm-up, the calls
 * per second of `BURST` calls with 16 in flight, and the proxy's resident
 * memory once idle (VmRSS of the process it started, after the calls and a
 * pause), and the CPU each call of the burst cost the process it started
 * and the host itself. Prints one JSON line: {median_ms, calls_per_s,
 * idle_rss_kb, child_cpu_us, host_cpu_us}.
 *
 * Usage: deno run -A serve_host.ts CALLS BURST -- COMMAND ARGV…
 *
 * @module
 */

import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";

const [calls, burst, _dashes, command, ...args] = Deno.args;
const transport = new StdioClientTransport({
  command,
  args,
  env: Deno.env.toObject(),
  stderr: "ignore",
});
const client = new Client({ name: "bench-host", version: "1.0.0" });
await client.connect(transport);
await client.listTools();
const call = (i: number) => client.callTool({ name: "echo", arguments: { text: `call ${i}` } });
for (let i = 0; i < 50; i++) await call(i);
const times: number[] = [];
for (let i = 0; i < Number(calls); i++) {
  const start = performance.now();
  await call(i);
  times.push(performance.now() - start);
}
times.sort((a, b) => a - b);
const total = Number(burst);
let next = 0;
const cpuBefore = await childCpu(transport.pid!);
const hostBefore = await childCpu(Deno.pid);
const started = performance.now();
await Promise.all(Array.from({ length: 16 }, async () => {
  while (next < total) await call(next++);
}));
const seconds = (performance.now() - started) / 1000;
const cpuAfter = await childCpu(transport.pid!);
const hostAfter = await childCpu(Deno.pid);
await new Promise((resolve) => setTimeout(resolve, 1000));
const status = await Deno.readTextFile(`/proc/${transport.pid}/status`).catch(() => "");
const rss = Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? NaN);
await client.close();
console.log(JSON.stringify({
  median_ms: times[Math.floor(times.length / 2)],
  calls_per_s: total / seconds,
  idle_rss_kb: rss,
  // CPU per call in the burst: the process the host started (server or proxy), and the host.
  child_cpu_us: (cpuAfter - cpuBefore) / total,
  host_cpu_us: (hostAfter - hostBefore) / total,
}));

/** User + system CPU of a process (µs), from /proc (ticks of 10 ms: read over many calls). */
async function childCpu(pid: number): Promise<number> {
  const stat = await Deno.readTextFile(`/proc/${pid}/stat`).catch(() => "");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // utime and stime are the 14th and 15th fields (the 12th and 13th after the name).
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}
