import assert from "node:assert/strict";
import { NdjsonWriter } from "../../lib/ndjson/write.ts";
import type { NdjsonLine } from "../../lib/ndjson/read.ts";
import { BreakerOpen, type Outcome, runOrdered } from "../../lib/put/ordered.ts";

const decoder = new TextDecoder();

/** A ByteWriter that records what it gets; `hold()` makes writes wait until `release()`. */
class Sink {
  text = "";
  writes = 0;
  #gate?: Promise<void>;
  #open?: () => void;
  broken = false;
  hold(): void {
    this.#gate = new Promise((resolve) => this.#open = resolve);
  }
  release(): void {
    this.#open?.();
    this.#gate = undefined;
  }
  async write(bytes: Uint8Array): Promise<number> {
    if (this.#gate) await this.#gate;
    if (this.broken) throw new Deno.errors.BrokenPipe("closed");
    this.writes++;
    this.text += decoder.decode(bytes);
    return bytes.length;
  }
}

/** An NdjsonWriter that says when it first told its producer to wait. */
class WatchedWriter extends NdjsonWriter {
  #told = deferred<void>();
  /** Resolves when `ready()` first returned a promise. */
  readonly blocked = this.#told.promise;
  override ready(): Promise<void> | undefined {
    const wait = super.ready();
    if (wait !== undefined) this.#told.resolve();
    return wait;
  }
}

/** Lines 1…n in batches of `size`, counting how many were pulled. */
function source(n: number, size = 3) {
  const counter = { pulled: 0 };
  async function* batches(): AsyncGenerator<NdjsonLine[]> {
    for (let start = 1; start <= n; start += size) {
      const batch: NdjsonLine[] = [];
      for (let i = start; i < start + size && i <= n; i++) batch.push({ number: i, text: `${i}` });
      counter.pulled += batch.length;
      yield batch;
      await Promise.resolve();
    }
  }
  return { batches: batches(), counter };
}

const ok = (line: NdjsonLine): Outcome => ({
  text: `${line.number}\n`,
  failed: false,
  called: true,
});

/** A promise and the function that settles it, so a test decides when each job ends. */
function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((settle) => resolve = settle);
  return { promise, resolve };
}

Deno.test("runOrdered writes outputs in input order with at most K jobs in flight", async () => {
  const sink = new Sink();
  let inFlight = 0;
  let peak = 0;
  const { batches } = source(40);
  const jobs: { line: NdjsonLine; done: (outcome: Outcome) => void }[] = [];
  const result = await runOrdered(batches, {
    concurrency: 5,
    failFast: false,
    out: new NdjsonWriter(sink),
    handle: (line) => {
      peak = Math.max(peak, ++inFlight);
      const job = deferred<Outcome>();
      jobs.push({ line, done: job.resolve });
      // Whenever the window is full (or the input is over), the jobs end last first.
      if (jobs.length === 5 || line.number === 40) {
        for (const { line, done } of jobs.splice(0).reverse()) {
          inFlight--;
          done(ok(line));
        }
      }
      return job.promise;
    },
    skip: () => assert.fail("nothing is fatal"),
  });
  assert.equal(sink.text, Array.from({ length: 40 }, (_, i) => `${i + 1}\n`).join(""));
  assert.equal(peak, 5);
  assert.deepEqual(result, {
    records: 40,
    calls: 40,
    errors: 0,
    done: 40,
    stop: "end",
    fatal: undefined,
  });
  assert.ok(sink.writes < 40, `${sink.writes} writes: output is batched`);
});

Deno.test("runOrdered stops reading while the writer is blocked (backpressure)", async () => {
  const sink = new Sink();
  sink.hold();
  const { batches, counter } = source(10_000, 100);
  const out = new WatchedWriter(sink, { highWaterBytes: 1000 });
  const run = runOrdered(batches, {
    concurrency: 4,
    failFast: false,
    out,
    handle: (line) => ({ text: `${"x".repeat(99)}${line.number}\n`, failed: false, called: true }),
    skip: () => assert.fail("nothing is fatal"),
  });
  // The event: the writer told the run to wait. Then one turn of the event loop,
  // in which a run that ignored it would pull the whole input (it is all in memory).
  await out.blocked;
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.ok(counter.pulled <= 200, `pulled ${counter.pulled} lines while blocked`);
  sink.release();
  const result = await run;
  assert.equal(result.done, 10_000);
  assert.equal(sink.text.split("\n").length - 1, 10_000);
});

Deno.test("after a fatal outcome the remaining lines are read and skipped", async () => {
  const sink = new Sink();
  const cause = new Error("server gone");
  const result = await runOrdered(source(6).batches, {
    concurrency: 2,
    failFast: false,
    out: new NdjsonWriter(sink),
    handle: (line) =>
      line.number === 3 ? { text: "3 died\n", failed: true, called: true, fatal: cause } : ok(line),
    skip: (line, why) => ({
      text: `${line.number} skipped: ${(why as Error).message}\n`,
      failed: true,
      called: false,
    }),
  });
  assert.equal(
    sink.text,
    "1\n2\n3 died\n4 skipped: server gone\n5 skipped: server gone\n6 skipped: server gone\n",
  );
  assert.equal(result.fatal, cause);
  assert.deepEqual([result.records, result.calls, result.errors], [6, 3, 4]);
});

Deno.test("failFast stops reading after a failure but writes the jobs already started", async () => {
  const sink = new Sink();
  const { batches, counter } = source(100, 1);
  const jobs: ((outcome: Outcome) => void)[] = [];
  const result = await runOrdered(batches, {
    concurrency: 3,
    failFast: true,
    out: new NdjsonWriter(sink),
    handle: (line) => {
      const job = deferred<Outcome>();
      jobs.push(job.resolve);
      if (line.number === 3) {
        // Three calls in flight: line 2 fails first, then 1 and 3 answer.
        jobs[1]({ text: "2 failed\n", failed: true, called: true });
        jobs[0](ok({ number: 1, text: "1" }));
        jobs[2](ok(line));
      }
      return job.promise;
    },
    skip: () => assert.fail("nothing is fatal"),
  });
  assert.equal(result.stop, "fail_fast");
  assert.equal(sink.text, "1\n2 failed\n3\n");
  assert.ok(counter.pulled <= 4);
});

Deno.test("a closed stdout stops the run without waiting for the jobs in flight", async () => {
  const sink = new Sink();
  sink.broken = true;
  let started = 0;
  const result = await runOrdered(source(1000).batches, {
    concurrency: 2,
    failFast: false,
    out: new NdjsonWriter(sink),
    handle: (line) => {
      started++;
      return line.number === 1 ? ok(line) : new Promise<Outcome>(() => {}); // never settles
    },
    skip: () => assert.fail("nothing is fatal"),
  });
  assert.equal(result.stop, "broken_pipe");
  assert.ok(started <= 3);
});

Deno.test("aborting the signal stops reading and waits for the jobs in flight", async () => {
  const sink = new Sink();
  const abort = new AbortController();
  const result = await runOrdered(source(1000, 1).batches, {
    concurrency: 3,
    failFast: false,
    out: new NdjsonWriter(sink),
    signal: abort.signal,
    handle: (line) => {
      if (line.number === 3) abort.abort();
      // A call in flight ends when the signal cancels it (as a session's calls do).
      const cancelled = { text: `${line.number} cancelled\n`, failed: true, called: true };
      if (abort.signal.aborted) return Promise.resolve(cancelled);
      return new Promise<Outcome>((resolve) =>
        abort.signal.addEventListener("abort", () => resolve(cancelled), { once: true })
      );
    },
    skip: () => assert.fail("nothing is fatal"),
  });
  assert.equal(result.stop, "interrupted");
  assert.equal(sink.text, "1 cancelled\n2 cancelled\n3 cancelled\n");
});

Deno.test("after maxTimeouts timeouts in a row no job starts; every later line is still skipped", async () => {
  const sink = new Sink();
  const started: number[] = [];
  const result = await runOrdered(source(9).batches, {
    concurrency: 1,
    failFast: false,
    maxTimeouts: 3,
    out: new NdjsonWriter(sink),
    handle: (line) => {
      started.push(line.number);
      // Line 2 answers, which resets the count; 1 and 3, 4, 5 time out.
      if (line.number === 2) return ok(line);
      return { text: `${line.number} timeout\n`, failed: true, called: true, timedOut: true };
    },
    skip: (line, why) => ({
      text: `${line.number} not attempted after ${(why as BreakerOpen).timeouts}\n`,
      failed: true,
      called: false,
    }),
  });
  assert.deepEqual(started, [1, 2, 3, 4, 5]);
  assert.equal(
    sink.text,
    "1 timeout\n2\n3 timeout\n4 timeout\n5 timeout\n" +
      [6, 7, 8, 9].map((n) => `${n} not attempted after 3\n`).join(""),
  );
  assert.ok(result.breaker instanceof BreakerOpen);
  assert.deepEqual({ ...result, breaker: undefined }, {
    records: 9,
    calls: 5,
    errors: 8,
    done: 9,
    stop: "end",
    fatal: undefined,
    breaker: undefined,
  });
});
