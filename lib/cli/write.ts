/**
 * Writing to stdout: one JSON document, a list of NDJSON records, or text,
 * quietly stopping when the reader has gone away (lib/ndjson/write.ts).
 *
 * @module
 */

import { NdjsonWriter, writeAll } from "../ndjson/write.ts";
import { jsonSafe } from "../output/visible.ts";
import type { Io } from "./io.ts";

/** Writes one pretty-printed JSON document (exact JSON, safe for a terminal: see jsonSafe). */
export async function writeJson(io: Io, value: unknown): Promise<void> {
  await writeText(io, jsonSafe(JSON.stringify(value, null, 2)) + "\n");
}

/** Writes records as NDJSON. */
export async function writeRecords(io: Io, records: Iterable<unknown>): Promise<void> {
  const out = new NdjsonWriter(io.stdout);
  for (const record of records) {
    await out.write(record);
    if (out.closed) break;
  }
  await out.flush();
}

/** Writes text to stdout. */
export async function writeText(io: Io, text: string): Promise<void> {
  await writeAll(io.stdout, new TextEncoder().encode(text));
}
