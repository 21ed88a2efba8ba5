/**
 * Ad-hoc A/B timing of shell commands in rotated rounds — the tool behind
 * the before/after tables of each optimisation step. Reports median and min
 * wall time, median CPU time (user + system, steadier than wall time on a
 * shared machine), the median per-round ratio to the first command, and
 * peak RSS.
 *
 * Usage: deno run -A scripts/bench/ab.ts [--rounds N] 'CMD A' 'CMD B' …
 * (each command runs through `bash -c`, with the benchmark's PATH shim).
 *
 * @module
 */

import { parseArgs } from "node:util";
import { benchEnv, prepareWork } from "./env.ts";
import { measure, median } from "./measure.ts";
import { mib, ms, table } from "./table.ts";

const { values, positionals } = parseArgs({
  args: Deno.args,
  allowPositionals: true,
  options: { rounds: { type: "string", default: "10" } },
});
await prepareWork();
const env = benchEnv();
const rows = await measure(
  positionals.map((command) => ({ name: command, argv: ["bash", "-c", command], env })),
  { rounds: Number(values.rounds) },
);
const [reference] = rows;
const body = rows.map((row) => {
  if (row.failure) return [row.bench.name, "—", "—", "—", "—", row.failure];
  const wall = row.samples.map((s) => s.ms);
  const ratio = median(row.samples.map((s, i) => s.ms / reference.samples[i].ms));
  return [
    "`" + row.bench.name + "`",
    ms(median(wall)),
    ms(Math.min(...wall)),
    ms(median(row.samples.map((s) => s.cpuMs))),
    ratio.toFixed(2),
    mib(median(row.samples.map((s) => s.rssKb))),
  ];
});
await Deno.stdout.write(
  new TextEncoder().encode(
    table(["command", "median ms", "min ms", "CPU ms", "× first", "RSS MiB"], body) + "\n",
  ),
);
