/**
 * Benchmark of `jn put`: N records through a cheap tool (`echo` of the
 * fixture server, run under deno as `mcp+deno://` runs it), at several
 * concurrencies, against a reference client that writes pre-built JSON-RPC
 * lines straight to the same server argv (scripts/bench/raw_client.ts).
 * Then the memory check: peak RSS of `jn put` for growing inputs.
 *
 *   deno run -P=jn scripts/bench/put.ts [--records 10000] [--concurrency 1,8,32]
 *     [--sizes 10000,100000] [--runs 3] [--server deno|node]
 *
 * calls/s is measured over the call phase (jn: its own summary line, first
 * record read → last record written; raw: first request written → last
 * answer read), so neither side pays for process start-up; the end-to-end
 * wall time is shown beside it. Each number is the best of `--runs`
 * (the machine is shared). Peak RSS is the largest process of jn's tree
 * (GNU time's %M), or the largest of jn's RSS sampled with ps(1) every
 * 100 ms when GNU time is missing. The memory check runs each size twice:
 * as is (V8 sizes its heap lazily, so RSS drifts up with work done) and with
 * V8's old space capped at 48 MB — completing under the cap with the same
 * RSS at every size is what shows that memory does not grow with the input.
 * Prints markdown.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { buildLaunch } from "../../lib/launch/build.ts";
import type { StdioLaunch } from "../../lib/launch/spec.ts";
import { permissionFlags } from "../../lib/sandbox/permissions.ts";
import { parseSource } from "../../lib/uri/parse.ts";
import { type RawResult, runRawClient } from "./raw_client.ts";

const ROOT = new URL("../..", import.meta.url).pathname.replace(/\/$/, "");
const GNU_TIME = "/usr/bin/time";
/** A run that completes under this V8 old-space cap holds no per-record memory. */
const HEAP_CAP_MB = 48;

interface JnResult {
  records: number;
  callMs: number;
  totalMs: number;
  rssKb?: number;
}

/** Runs the benchmark and returns its markdown report. */
export async function benchPut(argv: string[]): Promise<string> {
  const { values } = parseArgs({
    args: argv,
    options: {
      records: { type: "string", default: "10000" },
      concurrency: { type: "string", default: "1,8,32" },
      sizes: { type: "string", default: "10000,100000" },
      runs: { type: "string", default: "3" },
      server: { type: "string", default: "deno" },
    },
  });
  const n = Number(values.records);
  const levels = values.concurrency.split(",").map(Number);
  const sizes = values.sizes.split(",").filter((s) => s !== "").map(Number);
  const runs = Math.max(1, Number(values.runs));
  const uri = `mcp+${values.server}://${ROOT}/tests/fixtures/servers/fixture.mjs?tool=echo`;
  const source = parseSource(uri);
  if (source.kind !== "naked") throw new Error(`Not a naked URI: ${uri}`);
  const launch = buildLaunch(source, { cwd: ROOT }) as StdioLaunch;
  const dir = await Deno.makeTempDir({ prefix: "jn-bench-put-" });
  const hasTime = await exists(GNU_TIME);
  try {
    const input = await writeInput(dir, n);
    const lines: string[] = [
      `## jn put — ${n} records, tool \`echo\` on fixture.mjs under ${values.server}`,
      "",
      `deno ${Deno.version.deno}, ${navigator.hardwareConcurrency} CPUs, load ${await loadAverage()} at start; ` +
      `best of ${runs} runs; RSS by ${hasTime ? "GNU time %M" : "ps sampling"}.`,
      "",
      "| client | in flight | calls/s (call phase) | end-to-end s | peak RSS MB | jn ÷ raw (same window) | jn ÷ raw ∞ |",
      "|---|---:|---:|---:|---:|---:|---:|",
    ];
    const args = Array.from({ length: n }, (_, i) => ({ text: `record ${i}` }));
    const unbounded = best(
      await repeat(runs, () => runRawClient(launch, { tool: "echo", args, window: 0 })),
    );
    for (const k of levels) {
      const jn = bestJn(
        await repeat(runs, () => runJnPut(uri, { input, concurrency: k, hasTime })),
      );
      const raw = best(
        await repeat(runs, () => runRawClient(launch, { tool: "echo", args, window: k })),
      );
      if (jn.records !== n) throw new Error(`jn put wrote ${jn.records} records, expected ${n}`);
      lines.push(row(`jn put -c ${k}`, k, jn, { same: rate(raw), unbounded: rate(unbounded) }));
      lines.push(row("raw JSON-RPC", k, raw));
    }
    lines.push(row("raw JSON-RPC", "∞", unbounded));
    if (sizes.length > 0) {
      lines.push("", "### Memory: `jn put -c 8`, one run per size", "");
      lines.push(
        `| records | calls/s | end-to-end s | peak RSS MB | peak RSS MB, V8 heap capped at ${HEAP_CAP_MB} MB |`,
        "|---:|---:|---:|---:|---:|",
      );
      for (const size of sizes) {
        const file = size === n ? input : await writeInput(dir, size);
        const jn = await runJnPut(uri, { input: file, concurrency: 8, hasTime });
        const capped = await runJnPut(uri, {
          input: file,
          concurrency: 8,
          hasTime,
          heapCapMb: HEAP_CAP_MB,
        });
        const seconds = (jn.totalMs / 1000).toFixed(2);
        lines.push(
          `| ${size} | ${fmt(rate(jn))} | ${seconds} | ${mb(jn.rssKb)} | ${mb(capped.rssKb)} |`,
        );
      }
    }
    return lines.join("\n");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

async function runJnPut(
  uri: string,
  options: { input: string; concurrency: number; hasTime: boolean; heapCapMb?: number },
): Promise<JnResult> {
  const v8 = options.heapCapMb ? [`--v8-flags=--max-old-space-size=${options.heapCapMb}`] : [];
  const jn = [Deno.execPath(), "run", ...v8, ...permissionFlags(), `${ROOT}/main.ts`];
  const argv = [...jn, "put", "-c", String(options.concurrency), uri];
  const [command, ...args] = options.hasTime ? [GNU_TIME, "-f", "rss=%M", ...argv] : argv;
  const started = performance.now();
  const child = new Deno.Command(command, {
    args,
    cwd: ROOT,
    env: benchEnv(),
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const sampler = options.hasTime ? undefined : sampleHwm(child.pid);
  const feeding = (await Deno.open(options.input)).readable.pipeTo(child.stdin);
  let records = 0;
  const counting = (async () => {
    for await (const chunk of child.stdout) for (const byte of chunk) if (byte === 10) records++;
  })();
  const [stderr, status] = await Promise.all([new Response(child.stderr).text(), child.status]);
  await Promise.all([feeding, counting]);
  const totalMs = performance.now() - started;
  if (!status.success) throw new Error(`jn put failed (exit ${status.code}): ${stderr}`);
  const phase = / in (\d+\.\d+)s \(/.exec(stderr);
  const rss = /rss=(\d+)/.exec(stderr);
  return {
    records,
    callMs: phase ? Number(phase[1]) * 1000 : totalMs,
    totalMs,
    rssKb: rss ? Number(rss[1]) : await sampler?.stop(),
  };
}

function benchEnv(): Record<string, string> {
  const env: Record<string, string> = { NO_COLOR: "1" };
  for (const name of ["PATH", "HOME", "DENO_DIR"]) {
    const value = Deno.env.get(name);
    if (value !== undefined) env[name] = value;
  }
  return env;
}

/** Polls the RSS of a process with ps(1) until stopped; returns the largest sample in KB. */
function sampleHwm(pid: number): { stop(): Promise<number | undefined> } {
  let peak: number | undefined;
  const read = async () => {
    try {
      const out = await new Deno.Command("ps", { args: ["-o", "rss=", "-p", String(pid)] })
        .output();
      const kb = Number(new TextDecoder().decode(out.stdout).trim());
      if (kb > (peak ?? 0)) peak = kb;
    } catch { /* no ps */ }
  };
  const timer = setInterval(read, 100);
  return {
    stop: () => {
      clearInterval(timer);
      return Promise.resolve(peak);
    },
  };
}

async function writeInput(dir: string, n: number): Promise<string> {
  const path = `${dir}/records-${n}.ndjson`;
  const file = await Deno.open(path, { write: true, create: true, truncate: true });
  const encoder = new TextEncoder();
  for (let start = 0; start < n; start += 10_000) {
    let text = "";
    for (let i = start; i < Math.min(n, start + 10_000); i++) text += `{"text":"record ${i}"}\n`;
    await file.write(encoder.encode(text));
  }
  file.close();
  return path;
}

async function repeat<T>(times: number, run: () => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  for (let i = 0; i < times; i++) results.push(await run());
  return results;
}

const rate = (r: { records?: number; calls?: number; callMs: number }) =>
  (r.calls ?? r.records ?? 0) / (r.callMs / 1000);
const best = (results: RawResult[]) => results.reduce((a, b) => (rate(b) > rate(a) ? b : a));
const bestJn = (results: JnResult[]) => ({
  ...results.reduce((a, b) => (rate(b) > rate(a) ? b : a)),
  rssKb: Math.max(...results.map((r) => r.rssKb ?? 0)) || undefined,
});

function row(
  name: string,
  window: number | string,
  r: JnResult | RawResult,
  versus?: { same: number; unbounded: number },
): string {
  const ratio = (limit: number) => `${Math.round((rate(r) / limit) * 100)}%`;
  const rss = "rssKb" in r ? mb(r.rssKb) : "";
  return `| ${name} | ${window} | ${fmt(rate(r))} | ${(r.totalMs / 1000).toFixed(2)} | ${rss} | ${
    versus ? ratio(versus.same) : ""
  } | ${versus ? ratio(versus.unbounded) : ""} |`;
}

const fmt = (n: number) => Math.round(n).toLocaleString("en-US");
const mb = (kb: number | undefined) => (kb === undefined ? "n/a" : (kb / 1024).toFixed(0));

async function loadAverage(): Promise<string> {
  try {
    const out = await new Deno.Command("cat", { args: ["/proc/loadavg"] }).output();
    return new TextDecoder().decode(out.stdout).split(" ").slice(0, 3).join(" ") || "n/a";
  } catch {
    return "n/a";
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

if (import.meta.main) {
  // deno-lint-ignore no-console
  console.log(await benchPut(Deno.args));
}
