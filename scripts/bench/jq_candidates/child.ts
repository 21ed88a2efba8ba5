/**
 * One measurement of one jq candidate, printed as a JSON line; started by
 * `scripts/bench/jq_startup.ts` in a fresh process so that every start is cold.
 *
 * This directory has its own deno.json: `jq-web` is a candidate measured here
 * only, and listing it in jn's deno.json would embed it in the `deno compile`
 * binary (deno compile embeds every npm package of the lockfile).
 *
 * Usage: deno run --allow-read --allow-env child.ts CANDIDATE cold|throughput N
 *
 * @module
 */

import { compileJq } from "../../../lib/filter/jq.ts";

/** The WebAssembly builds of jq measured. */
export type Candidate = "jq-wasm/inline" | "jq-wasm" | "jq-web";

/** The expression timed: a select, a field test, an object. */
export const EXPR = 'select(.x > 1) | {id, t: (.text | contains("Phase 3"))}';
const BATCH = 4096;

/** A synchronous `jq FLAGS QUERY` over `input`, returning stdout. */
type RawJq = (input: string, query: string, flags: string[]) => string;

async function load(candidate: Candidate): Promise<{ raw: RawJq; version: string }> {
  if (candidate === "jq-web") {
    const jq = await (await import("jq-web")).default;
    const version = String(jq.raw("null", ".", ["--version"])).trim();
    return { raw: (input, query, flags) => jq.raw(input, query, flags) ?? "", version };
  }
  const { loadJq } = candidate === "jq-wasm"
    ? await import("jq-wasm")
    : await import("jq-wasm/inline");
  const jq = await loadJq();
  return { raw: (input, query, flags) => jq.raw(input, query, flags).stdout, version: jq.version };
}

function records(n: number): string[] {
  return Array.from(
    { length: n },
    (_, i) => JSON.stringify({ id: i, text: i % 3 ? "A Phase 3 trial" : "other", x: i % 7 }),
  );
}

async function measure(candidate: Candidate, mode: string, n: number): Promise<unknown> {
  const started = performance.now();
  const { raw, version } = await load(candidate);
  if (raw('{"a":1}', ".a", ["-c"]).trim() !== "1") throw new Error(`${candidate}: wrong result`);
  const coldMs = performance.now() - started;
  if (mode === "cold") return { coldMs, version };

  const lines = records(n);
  const perCallCount = Math.min(300, n);
  let t = performance.now();
  for (const line of lines.slice(0, perCallCount)) raw(line, EXPR, ["-c"]);
  const perCallMs = (performance.now() - t) / perCallCount;

  t = performance.now();
  let outputs = 0;
  for (let i = 0; i < n; i += BATCH) {
    const out = raw(lines.slice(i, i + BATCH).join("\n"), `fromjson | ${EXPR}`, ["-R", "-c"]);
    outputs += out.trim() === "" ? 0 : out.trim().split("\n").length;
  }
  const batchedUs = (performance.now() - t) * 1000 / n;
  const rssMb = Deno.memoryUsage().rss / 2 ** 20;

  let jnUs: number | undefined;
  if (candidate === "jq-wasm/inline") {
    const filter = await compileJq(EXPR);
    t = performance.now();
    filter.run(lines);
    jnUs = (performance.now() - t) * 1000 / n;
  }
  return { coldMs, version, perCallMs, batchedUs, jnUs, outputs, rssMb };
}

if (import.meta.main) {
  const [candidate, mode, n] = Deno.args;
  const result = await measure(candidate as Candidate, mode, Number(n));
  await Deno.stdout.write(new TextEncoder().encode(JSON.stringify(result) + "\n"));
}
