// deno-lint-ignore-file no-console
/**
 * What the MCP SDK alone costs per call: its client and its low-level
 * server in one process, linked in memory (no I/O, no JSON text), a
 * trivial `tools/call` answered, 16 calls in flight after a warm-up. A
 * proxy built on the SDK does this work once per call (its server side
 * faces the host, its client side the server), on top of the I/O. Prints
 * one JSON line: {cpu_us_per_call}.
 *
 * Usage: deno run -A sdk_memory.ts CALLS
 *
 * @module
 */

import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { Server } from "@modelcontextprotocol/server";

const total = Number(Deno.args[0] ?? 20000);
const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
const server = new Server({ name: "sdk-memory", version: "1.0.0" }, {
  capabilities: { tools: {} },
});
server.setRequestHandler("tools/list", () => ({
  tools: [{ name: "echo", inputSchema: { type: "object" as const } }],
}));
server.setRequestHandler("tools/call", (request) => ({
  content: [{ type: "text" as const, text: JSON.stringify(request.params.arguments ?? {}) }],
}));
await server.connect(serverSide);
const client = new Client({ name: "bench-host", version: "1.0.0" });
await client.connect(clientSide);
await client.listTools();
const call = (i: number) => client.callTool({ name: "echo", arguments: { text: `call ${i}` } });
for (let i = 0; i < 2000; i++) await call(i);
let next = 0;
const before = cpu();
await Promise.all(Array.from({ length: 16 }, async () => {
  while (next < total) await call(next++);
}));
console.log(JSON.stringify({ cpu_us_per_call: (cpu() - before) / total }));
await client.close();

/** User + system CPU of this process (µs), from /proc (ticks of 10 ms: read over many calls). */
function cpu(): number {
  const stat = Deno.readTextFileSync("/proc/self/stat");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}
