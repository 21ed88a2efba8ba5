/**
 * A large tool result through `jn cat` (one record holding the whole text)
 * and `jn cat --json` (the text parsed, one record per array element), at
 * 10, 25 and 50 MB, with the raw Deno client reading the same response as
 * the floor. Linear means ms/MB stays flat as the size grows; the memory
 * target is peak RSS ≤ 4× the payload. With the bundle, `jn cat` at the
 * largest size from the bundle too.
 *
 * The payload is a JSON array of objects (~120 bytes each) that the server
 * streams from a file, so the server itself stays at a few MB.
 *
 * Run alone: deno task bench payload [--rounds N] [--quick]
 *
 * @module
 */

import { type Bench, measure } from "../measure.ts";
import { benchEnv, jn, jnBundled, PAYLOADS, rawDeno } from "../env.ts";
import { mib, ms, rssOf, table, timeOf } from "../table.ts";
import type { ScenarioOptions, Section } from "./types.ts";

/** The row of `jn cat` at `mb` MB. */
export const cat = (mb: number): string => `jn cat, ${mb} MB`;
/** The row of `jn cat` at `mb` MB from the bundle (the largest size only). */
export const catBundle = (mb: number): string => `jn cat, ${mb} MB, bundle`;

/** Writes the `rows` response tail for `mb` megabytes (once); returns the text's size in bytes. */
export async function payload(mb: number): Promise<number> {
  const path = `${PAYLOADS}/rows_${mb}.part`;
  const sizePath = `${path}.size`;
  const known = await Deno.readTextFile(sizePath).catch(() => "");
  if (known) return Number(known);
  const items: string[] = [];
  let size = 2;
  for (let i = 0; size < mb * 1_000_000; i++) {
    const item = JSON.stringify({
      id: i,
      name: `row ${i}`,
      tags: ["alpha", "beta"],
      value: i * 0.5,
      note: "lorem ipsum dolor sit amet, consectetur adipiscing elit",
    });
    items.push(item);
    size += item.length + 1;
  }
  const text = `[${items.join(",")}]`;
  const tail = `,"result":{"content":[{"type":"text","text":${JSON.stringify(text)}}]}}\n`;
  await Deno.writeTextFile(`${path}.tmp`, tail);
  await Deno.rename(`${path}.tmp`, path);
  await Deno.writeTextFile(sizePath, String(text.length));
  return text.length;
}

/** `cat` and `cat --json` at each size. */
export async function payloadScenario(options: ScenarioOptions): Promise<Section[]> {
  const env = benchEnv();
  const sizes = options.quick ? [10, 25] : [10, 25, 50];
  const benches: (Bench & { mb: number; bytes: number })[] = [];
  for (const mb of sizes) {
    const bytes = await payload(mb);
    const uri = `mcp+uvx://trivial?tool=rows&mb=${mb}`;
    const check = (stdout: string, code: number) =>
      code === 0 && stdout.length > 0 ? undefined : `exit ${code}, ${stdout.length} bytes`;
    benches.push(
      { name: `raw Deno client, ${mb} MB`, argv: rawDeno(`rows=${mb}`), mb, bytes, env, check },
      { name: cat(mb), argv: jn(["cat", uri]), mb, bytes, env, check },
      { name: `jn cat --json, ${mb} MB`, argv: jn(["cat", "--json", uri]), mb, bytes, env, check },
    );
    if (options.bundle && mb === sizes.at(-1)) {
      benches.push({ name: catBundle(mb), argv: jnBundled(["cat", uri]), mb, bytes, env, check });
    }
  }
  const rows = await measure(benches, { rounds: options.rounds, onRound: options.onRound });
  const body = table(
    ["command", "payload MB", "median ms", "ms per MB", "peak RSS MiB", "RSS ÷ payload"],
    rows.map((row, i) => {
      const { mb, bytes } = benches[i];
      if (row.failure) {
        return [row.bench.name, String(mb), "—", "—", "—", `not timed: ${row.failure}`];
      }
      const t = timeOf(row);
      const rss = rssOf(row) * 1024;
      return [
        row.bench.name,
        (bytes / 1e6).toFixed(1),
        ms(t),
        (t / (bytes / 1e6)).toFixed(1),
        mib(rssOf(row)),
        (rss / bytes).toFixed(2),
      ];
    }),
  );
  return [{ title: "Large tool result — cat and cat --json", body, rows }];
}
