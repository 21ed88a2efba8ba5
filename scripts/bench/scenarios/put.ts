/**
 * `jn put` throughput and memory. Throughput: N records through
 * `jn put --concurrency 16` against two references on the same server: the
 * raw pipelined client (16 calls in flight, results written in input order,
 * hand-written JSON-RPC: the physical limit) and the same client through
 * jn's session layer (clients/session_pipelined.ts: the MCP SDK and nothing
 * of jn above lib/session, the floor of this design). calls/s is N / wall
 * time of the whole process (start-up included, so N is large); the ratios
 * are per round, as % of each reference's calls/s. With the bundle, jn at
 * 16 in flight from its bundle too.
 * Memory: peak RSS of `jn put` for 10k, 100k and 1M records (one run each):
 * flat means it does not grow with the input.
 *
 * Run alone: deno task bench put [--rounds N] [--quick]
 *
 * @module
 */

import { type Bench, measure, type Measured, median, ratioTo } from "../measure.ts";
import { benchEnv, jn, jnBundled, rawPipelined, sessionPipelined, WORK } from "../env.ts";
import { mib, ms, rssOf, table, timeOf } from "../table.ts";
import type { ScenarioOptions, Section } from "./types.ts";

const URI = "mcp+uvx://trivial?tool=echo";

/** The raw pipelined client's row (the physical limit). */
export const RAW_PIPELINED = "raw pipelined client (16 in flight)";
/** The SDK-floor row: the same client through jn's session layer. */
export const SESSION_PIPELINED = "jn session layer, pipelined (16 in flight; SDK floor)";
/** jn's row at 16 in flight. */
export const PUT_16 = "jn put --concurrency 16";
/** The same from the bundle (what `deno task compile` compiles). */
export const PUT_16_BUNDLE = "jn put --concurrency 16, bundle";

/** Writes `n` NDJSON records `{"text":"record N"}` (once) and returns the path. */
export async function records(n: number): Promise<string> {
  const path = `${WORK}/records_${n}.ndjson`;
  if ((await Deno.stat(path).catch(() => undefined))?.isFile) return path;
  const file = await Deno.open(`${path}.tmp`, { write: true, create: true, truncate: true });
  const encoder = new TextEncoder();
  const batch = 10_000;
  for (let start = 1; start <= n; start += batch) {
    let text = "";
    for (let i = start; i < start + batch && i <= n; i++) text += `{"text":"record ${i}"}\n`;
    const bytes = encoder.encode(text);
    let offset = 0;
    while (offset < bytes.length) offset += await file.write(bytes.subarray(offset));
  }
  file.close();
  await Deno.rename(`${path}.tmp`, path);
  return path;
}

function countCheck(n: number) {
  return (stdout: string, code: number) => {
    if (code !== 0) return `exit ${code}`;
    // Only the head of stdout is kept: check it starts with record 1.
    return stdout.includes('"input":1,') || stdout.includes('"input":1}')
      ? undefined
      : `unexpected output for ${n} records`;
  };
}

/** Throughput at 16 in flight. */
export async function putScenario(options: ScenarioOptions): Promise<Section[]> {
  const env = benchEnv();
  const n = options.quick ? 5_000 : 20_000;
  const input = await records(n);
  const benches: Bench[] = [
    { name: RAW_PIPELINED, argv: rawPipelined(16), stdin: input },
    { name: SESSION_PIPELINED, argv: sessionPipelined(16), stdin: input },
    {
      name: PUT_16,
      argv: jn(["put", "--concurrency", "16", URI]),
      stdin: input,
    },
    { name: "jn put --concurrency 1", argv: jn(["put", "--concurrency", "1", URI]), stdin: input },
    ...options.bundle
      ? [{
        name: PUT_16_BUNDLE,
        argv: jnBundled(["put", "--concurrency", "16", URI]),
        stdin: input,
      }]
      : [],
  ].map((b) => ({ ...b, env, check: countCheck(n) }));
  const rows = await measure(benches, { rounds: options.rounds, onRound: options.onRound });
  const [raw, floor] = rows;
  const percentOf = (row: Measured, reference: Measured) =>
    reference.failure ? "—" : `${(100 * ratioTo(reference, row)).toFixed(0)}%`;
  const body = table(
    [
      "command",
      `median ms (${n} calls)`,
      "calls/s",
      "% of raw (per round)",
      "% of SDK floor (per round)",
      "CPU ms (user+sys)",
      "peak RSS MiB",
    ],
    rows.map((row) => {
      if (row.failure) {
        return [row.bench.name, "—", "—", "—", "—", "—", `not timed: ${row.failure}`];
      }
      const t = timeOf(row);
      return [
        row.bench.name,
        ms(t),
        (n / (t / 1000)).toFixed(0),
        percentOf(row, raw),
        percentOf(row, floor),
        ms(median(row.samples.map((sample) => sample.cpuMs))),
        mib(rssOf(row)),
      ];
    }),
  );
  return [{ title: `put throughput — ${n} records, trivial server`, body, rows }];
}

/** Peak RSS from 10k to 1M records. */
export async function putMemoryScenario(options: ScenarioOptions): Promise<Section[]> {
  const env = benchEnv();
  const sizes = options.quick ? [10_000, 100_000] : [10_000, 100_000, 1_000_000];
  const rowsOut: string[][] = [];
  for (const n of sizes) {
    const input = await records(n);
    const [row] = await measure(
      [{
        name: `jn put -c 16, ${n} records`,
        argv: jn(["put", "--concurrency", "16", URI]),
        stdin: input,
        env,
        check: countCheck(n),
      }],
      { rounds: 1, skipWarmup: true },
    );
    rowsOut.push(
      row.failure
        ? [String(n), "—", "—", `not timed: ${row.failure}`]
        : [String(n), ms(timeOf(row)), (n / (timeOf(row) / 1000)).toFixed(0), mib(rssOf(row))],
    );
  }
  return [{
    title: "put memory — peak RSS by input size (one run each)",
    body: table(["records", "wall ms", "calls/s", "peak RSS MiB"], rowsOut),
  }];
}
