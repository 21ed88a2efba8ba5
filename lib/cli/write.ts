/**
 * Writing one JSON document or a list of NDJSON records to stdout, quietly
 * stopping when the reader has gone away.
 *
 * @module
 */

import { NdjsonWriter, writeAll } from "../ndjson/write.ts";
import { jsonSafe } from "../output/visible.ts";
import type { Ctx } from "./main.ts";

/** Writes one pretty-printed JSON document (exact JSON, safe for a terminal: see jsonSafe). */
export async function writeJson(ctx: Ctx, value: unknown): Promise<void> {
  const text = jsonSafe(JSON.stringify(value, null, 2)) + "\n";
  await writeAll(ctx.io.stdout, new TextEncoder().encode(text), () => {});
}

/** Writes records as NDJSON. */
export async function writeRecords(ctx: Ctx, records: Iterable<unknown>): Promise<void> {
  const out = new NdjsonWriter(ctx.io.stdout);
  for (const record of records) {
    await out.write(record);
    if (out.closed) break;
  }
  await out.flush();
}
