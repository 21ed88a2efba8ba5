/**
 * The async-iterable side of {@linkcode put}: records a program gives as
 * numbered NDJSON lines ({@linkcode numbered}), and the run's output handed
 * back as records ({@linkcode RecordQueue}), with backpressure: when the
 * consumer lags, the run stops reading.
 *
 * @module
 */

import type { NdjsonLine } from "../ndjson/read.ts";
import type { LineSink } from "../ndjson/write.ts";

/** One output record of `put`. */
type PutRecord = Record<string, unknown>;

/** Records as numbered lines, one batch each. */
export async function* numbered(
  records: AsyncIterable<unknown> | Iterable<unknown>,
): AsyncGenerator<NdjsonLine[], void, undefined> {
  let number = 0;
  for await (const record of records) {
    yield [{ text: JSON.stringify(record) ?? String(record), number: ++number }];
  }
}

/** The records of a run, handed to an async consumer, with backpressure. */
export class RecordQueue implements LineSink {
  #records: PutRecord[] = [];
  #high = 256;
  #done = false;
  #error: { error: unknown } | undefined;
  #closed = false;
  #onClosed: (() => void)[] = [];
  #wakeConsumer?: () => void;
  #wakeProducer?: () => void;

  get closed(): boolean {
    return this.#closed;
  }

  onClosed(listener: () => void): void {
    if (this.#closed) listener();
    else this.#onClosed.push(listener);
  }

  push(text: string): void {
    if (this.#closed) return;
    for (const line of text.split("\n")) if (line !== "") this.#records.push(JSON.parse(line));
    this.#wake();
  }

  ready(): Promise<void> | undefined {
    if (this.#records.length < this.#high || this.#closed) return undefined;
    return new Promise((resolve) => this.#wakeProducer = resolve);
  }

  flush(): Promise<void> {
    return Promise.resolve();
  }

  end(error?: unknown): void {
    this.#done = true;
    if (error !== undefined) this.#error = { error };
    this.#wake();
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const listener of this.#onClosed.splice(0)) listener();
    this.#wakeProducer?.();
  }

  async *drain(): AsyncGenerator<PutRecord, void, undefined> {
    for (;;) {
      if (this.#records.length > 0) {
        const record = this.#records.shift()!;
        if (this.#records.length < this.#high) {
          const resume = this.#wakeProducer;
          this.#wakeProducer = undefined;
          resume?.();
        }
        yield record;
        continue;
      }
      if (this.#done) {
        if (this.#error) throw this.#error.error;
        return;
      }
      await new Promise<void>((resolve) => this.#wakeConsumer = resolve);
    }
  }

  #wake(): void {
    const resume = this.#wakeConsumer;
    this.#wakeConsumer = undefined;
    resume?.();
  }
}
