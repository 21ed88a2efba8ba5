/**
 * How long servers take to exit once their stdin is closed — the time jn's
 * teardown waits (it closes stdin, waits up to 500 ms, then SIGTERM, then
 * SIGKILL to the process group). Each server is started, initialized, and
 * its stdin closed; the time to its exit is measured here, in-process.
 *
 * Run alone: deno task bench teardown [--rounds N]
 *
 * @module
 */

import { median } from "../measure.ts";
import { benchEnv, NODE_BIN_DIR, ROOT, SERVER } from "../env.ts";
import { EVERYTHING_JS } from "../peers.ts";
import { ms, table } from "../table.ts";
import type { ScenarioOptions, Section } from "./types.ts";

const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "b", version: "1" },
  },
}) + "\n";

/** Milliseconds from closing stdin to the exit of the server (or `NaN` after 3 s). */
export async function exitAfterEof(argv: string[]): Promise<number> {
  const child = new Deno.Command(argv[0], {
    args: argv.slice(1),
    env: benchEnv(),
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(INITIALIZE));
  const reader = child.stdout.getReader();
  await reader.read();
  const started = performance.now();
  await writer.close();
  const timer = new Promise<"timeout">((resolve) => setTimeout(() => resolve("timeout"), 3000));
  const outcome = await Promise.race([child.status, timer]);
  const elapsed = performance.now() - started;
  if (outcome === "timeout") child.kill("SIGKILL");
  reader.releaseLock();
  await child.stdout.cancel().catch(() => {});
  await child.status;
  return outcome === "timeout" ? NaN : elapsed;
}

/** The exit-after-EOF table. */
export async function teardownScenario(options: ScenarioOptions): Promise<Section[]> {
  const node = `${NODE_BIN_DIR}/node`;
  const servers: [string, string[]][] = [
    ["trivial server (perl)", [SERVER]],
    ["tests fixture.mjs (Node 24)", [node, `${ROOT}/tests/fixtures/servers/fixture.mjs`]],
    ["jn's demo server (Deno, SDK)", [
      Deno.execPath(),
      "run",
      "-A",
      `${ROOT}/tests/fixtures/demo_server_main.ts`,
    ]],
    ["server-everything (Node 24, SDK v1)", [node, EVERYTHING_JS, "stdio"]],
  ];
  const rows: string[][] = [];
  for (const [name, argv] of servers) {
    const times: number[] = [];
    for (let i = 0; i < options.rounds; i++) times.push(await exitAfterEof(argv));
    rows.push([name, ms(median(times)), `${ms(Math.min(...times))}–${ms(Math.max(...times))}`]);
  }
  return [{
    title: "Teardown: a server's exit after its stdin closes",
    body: table(["server", "median ms", "min–max ms"], rows),
  }];
}
