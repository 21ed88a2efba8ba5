/**
 * What `jn serve` costs a host: a host (clients/serve_host.ts, the SDK
 * client) calling a trivial tool of the trivial server directly, through
 * `jn serve` (the CLI from source, as a host's config runs it), and
 * through the SDK-only proxy (clients/sdk_proxy.ts: the
 * SDK's client and low-level server passing tools/list and tools/call on,
 * nothing else — the floor of a proxy built on the SDK). Per path: the
 * median round trip of sequential calls, the calls per second with 16 in
 * flight, and the proxy's resident memory once idle. Each value is the
 * median over rounds (paths rotated per round).
 *
 * Issue 24's targets: added latency ≤ 2 ms, throughput ≥ 80 % of direct,
 * idle memory ≤ 1.5 × the SDK-only proxy.
 *
 * Run alone: deno task bench serve [--rounds N] [--quick]
 *
 * @module
 */

import { median } from "../measure.ts";
import { benchEnv, DENO, jn, ROOT, SERVER } from "../env.ts";
import { mib, ms, table } from "../table.ts";
import type { ScenarioOptions, Section } from "./types.ts";

const CLIENTS = `${ROOT}/scripts/bench/clients`;

interface HostRun {
  median_ms: number;
  calls_per_s: number;
  idle_rss_kb: number;
  child_cpu_us: number;
  host_cpu_us: number;
}

const PATHS: [name: string, argv: string[]][] = [
  ["direct", [SERVER]],
  ["jn serve", jn(["serve", "mcp+uvx://trivial"])],
  ["SDK-only proxy", [DENO, "run", "-A", `${CLIENTS}/sdk_proxy.ts`, "--", SERVER]],
  ["JSON-lines proxy", [DENO, "run", "-A", `${CLIENTS}/json_proxy.ts`, "--", SERVER]],
  ["byte pipe", [DENO, "run", "-A", `${CLIENTS}/pipe_proxy.ts`, "--", SERVER]],
];

async function hostRun(argv: string[], calls: number, burst: number): Promise<HostRun> {
  const output = await new Deno.Command(DENO, {
    args: ["run", "-A", `${CLIENTS}/serve_host.ts`, String(calls), String(burst), "--", ...argv],
    cwd: ROOT,
    env: benchEnv(),
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(output.stdout).trim().split("\n").pop() ?? "";
  if (!output.success) {
    throw new Error(`${argv.join(" ")}: ${new TextDecoder().decode(output.stderr).trim()}`);
  }
  return JSON.parse(text);
}

/** CPU µs per call of the SDK's client and server linked in memory (clients/sdk_memory.ts). */
async function sdkMemory(calls: number): Promise<number> {
  const output = await new Deno.Command(DENO, {
    args: ["run", "-A", `${CLIENTS}/sdk_memory.ts`, String(calls)],
    cwd: ROOT,
    env: benchEnv(),
    stdout: "piped",
    stderr: "inherit",
  }).output();
  return JSON.parse(new TextDecoder().decode(output.stdout)).cpu_us_per_call;
}

/** The serve table. */
export async function serveScenario(options: ScenarioOptions): Promise<Section[]> {
  const calls = options.quick ? 100 : 500;
  const burst = options.quick ? 1000 : 5000;
  const runs = new Map<string, HostRun[]>(PATHS.map(([name]) => [name, []]));
  for (let round = 0; round < options.rounds; round++) {
    options.onRound?.(round + 1);
    for (let i = 0; i < PATHS.length; i++) {
      const [name, argv] = PATHS[(round + i) % PATHS.length];
      runs.get(name)!.push(await hostRun(argv, calls, burst));
    }
  }
  const sdkAlone: number[] = [];
  for (let round = 0; round < options.rounds; round++) sdkAlone.push(await sdkMemory(burst * 4));
  const of = (name: string, key: keyof HostRun) => median(runs.get(name)!.map((run) => run[key]));
  const direct = { latency: of("direct", "median_ms"), rate: of("direct", "calls_per_s") };
  const proxyRss = of("SDK-only proxy", "idle_rss_kb");
  const rows = PATHS.map(([name]) => {
    const latency = of(name, "median_ms");
    const rate = of(name, "calls_per_s");
    const rss = of(name, "idle_rss_kb");
    return [
      name,
      ms(latency),
      name === "direct" ? "—" : `+${ms(latency - direct.latency)}`,
      rate.toFixed(0),
      `${((100 * rate) / direct.rate).toFixed(0)} %`,
      of(name, "host_cpu_us").toFixed(0),
      of(name, "child_cpu_us").toFixed(0),
      name === "direct" ? "—" : mib(rss),
      name === "direct" ? "—" : (rss / proxyRss).toFixed(2),
    ];
  });
  const body = table(
    [
      "path",
      "median call ms",
      "added ms",
      "calls/s (16 in flight)",
      "of direct",
      "host CPU µs/call",
      "proxy (direct: server) CPU µs/call",
      "idle RSS MiB",
      "RSS × SDK-only proxy",
    ],
    rows,
  ) +
    `\n\n${calls} sequential calls after 50 warm-up calls, then ${burst} with 16 in flight, ` +
    `per round; medians of ${options.rounds} rounds. CPU per call: user + system time over the ` +
    "16-in-flight calls, of the host and of the process it started (the proxy; direct: the " +
    "server). The host is the SDK client over stdio; " +
    "the server, the trivial Perl one (mcp+uvx://trivial through the shim). The SDK alone " +
    "(clients/sdk_memory.ts: its client and server linked in memory, no I/O) costs " +
    `${median(sdkAlone).toFixed(0)} µs of CPU per call. Targets (issue 24): ` +
    "added ≤ 2 ms, ≥ 80 % of direct, RSS ≤ 1.5 × the SDK-only proxy.";
  return [{ title: "serve: what a host pays for jn in between", body }];
}
