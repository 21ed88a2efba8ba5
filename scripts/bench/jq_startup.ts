/**
 * Start-up and throughput of the embedded jq (npm `jq-wasm`, its `inline`
 * entry, which jn uses) against the other WebAssembly builds considered:
 * `jq-wasm`'s default entry (reads its .wasm file from disk) and `jq-web`.
 *
 * Every number comes from a fresh child process (`jq_candidates/child.ts`),
 * so each start is cold:
 * - cold ms: import + instantiate + first result, timed inside the child;
 * - process ms: spawn to exit of a child that does only that;
 * - per call: one jq run per record (what a naive filter would do);
 * - batched: one jq run per 4096 lines (`-R`, `fromjson | EXPR`), what jn does;
 * - jn filter: `compileJq()` + `run()` (the wrapper with per-record errors);
 * - rss: resident memory after the batched run (before the jn filter run).
 *
 * jq-web reports its version as `jq-` (its build has no version string; its
 * builtins are jq 1.7's).
 *
 * Usage: deno run -P=jn scripts/bench/jq_startup.ts [--records N] [--starts K]
 *
 * @module
 */

const CANDIDATES = ["jq-wasm/inline", "jq-wasm", "jq-web"];
const CHILD = new URL("./jq_candidates/child.ts", import.meta.url).pathname;
const CONFIG = new URL("./jq_candidates/deno.json", import.meta.url).pathname;

interface Row {
  version: string;
  coldMs: number;
  wallMs: number;
  perCallMs: number;
  batchedUs: number;
  jnUs?: number;
  rssMb: number;
}

async function spawn(args: string[]): Promise<{ result: Row; wallMs: number }> {
  const started = performance.now();
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--config", CONFIG, "--allow-read", "--allow-env", CHILD, ...args],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const wallMs = performance.now() - started;
  const text = new TextDecoder().decode(out.stdout).trim().split("\n").at(-1) ?? "";
  if (!text.startsWith("{")) {
    throw new Error(`Child ${args.join(" ")} failed: ${new TextDecoder().decode(out.stderr)}`);
  }
  return { result: JSON.parse(text), wallMs };
}

const median = (xs: number[]) => xs.toSorted((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (x: number | undefined, digits = 1) => (x === undefined ? "-" : x.toFixed(digits));

async function measure(candidate: string, n: number, starts: number): Promise<Row> {
  const cold: number[] = [];
  const wall: number[] = [];
  let version = "";
  for (let k = 0; k < starts; k++) {
    const { result, wallMs } = await spawn([candidate, "cold", "0"]);
    cold.push(result.coldMs);
    wall.push(wallMs);
    version = result.version;
  }
  const { result } = await spawn([candidate, "throughput", String(n)]);
  return { ...result, version, coldMs: median(cold), wallMs: median(wall) };
}

function report(rows: Map<string, Row>, n: number, starts: number): string {
  const lines = [
    `jq start-up and throughput: Deno ${Deno.version.deno}, ${n} records, ` +
    `median of ${starts} cold starts`,
    "",
    "candidate        jq        cold ms  process ms  per call ms  batched µs/rec" +
    "  jn filter µs/rec  rss MB",
  ];
  for (const [name, r] of rows) {
    lines.push([
      name.padEnd(16),
      r.version.padEnd(9),
      fmt(r.coldMs).padStart(7),
      fmt(r.wallMs).padStart(11),
      fmt(r.perCallMs, 2).padStart(12),
      fmt(r.batchedUs, 2).padStart(15),
      fmt(r.jnUs, 2).padStart(17),
      fmt(r.rssMb).padStart(7),
    ].join(" "));
  }
  const chosen = rows.get(CANDIDATES[0])!;
  lines.push("", `ratio to ${CANDIDATES[0]} (above 1: slower or bigger):`);
  const keys = ["coldMs", "wallMs", "perCallMs", "batchedUs", "rssMb"] as const;
  for (const [name, r] of rows) {
    if (r === chosen) continue;
    const ratios = keys.map((k) => `${k} ${(r[k] / chosen[k]).toFixed(2)}x`);
    lines.push(`  ${name}: ${ratios.join(", ")}`);
  }
  return lines.join("\n") + "\n";
}

if (import.meta.main) {
  const flag = (name: string, fallback: number) => {
    const i = Deno.args.indexOf(name);
    return i === -1 ? fallback : Number(Deno.args[i + 1]);
  };
  const n = flag("--records", 100_000);
  const starts = flag("--starts", 5);
  const rows = new Map<string, Row>();
  for (const candidate of CANDIDATES) rows.set(candidate, await measure(candidate, n, starts));
  await Deno.stdout.write(new TextEncoder().encode(report(rows, n, starts)));
}
