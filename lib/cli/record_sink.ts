/**
 * Where `cat`, `head` and `tail` send records: all of them, the first N, or
 * the last N (kept in a ring, so memory is bounded by N, not by the output).
 *
 * @module
 */

import { type ByteWriter, NdjsonWriter } from "../ndjson/write.ts";

/** Which records to keep. */
export type SinkMode = { kind: "all" } | { kind: "head"; n: number } | { kind: "tail"; n: number };

/** Writes the records a mode selects. */
export class RecordSink {
  #out: NdjsonWriter;
  #mode: SinkMode;
  #seen = 0;
  #ring: unknown[] = [];

  constructor(writer: ByteWriter, mode: SinkMode) {
    this.#out = new NdjsonWriter(writer);
    this.#mode = mode;
  }

  /** True when no further record can be written (head is full, or the reader went away). */
  get done(): boolean {
    return this.#out.closed || (this.#mode.kind === "head" && this.#seen >= this.#mode.n);
  }

  /** How many records were offered. */
  get seen(): number {
    return this.#seen;
  }

  /** Offers one record. */
  async write(record: unknown): Promise<void> {
    if (this.done) return;
    this.#seen++;
    if (this.#mode.kind === "tail") {
      if (this.#mode.n === 0) return;
      this.#ring.push(record);
      if (this.#ring.length > this.#mode.n) this.#ring.shift();
      return;
    }
    await this.#out.write(record);
  }

  /** Writes what a tail kept, and flushes. */
  async end(): Promise<void> {
    for (const record of this.#ring) await this.#out.write(record);
    this.#ring = [];
    await this.#out.flush();
  }
}
