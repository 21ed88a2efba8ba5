/**
 * What `jn put` says on stderr: a progress line redrawn at most ten times a
 * second while stderr is a TTY (records done, errors, rate), and a one-line
 * summary at the end. `--quiet` silences both. Never touches stdout.
 *
 * @module
 */

import type { RunResult, RunStats } from "../client/put.ts";
import { style } from "../output/style.ts";
import { type Io, printErr, useColor } from "./io.ts";

const REDRAW_MS = 100;

/** Progress and summary of one put run. */
export class PutMeter {
  #io: Io;
  #label: string;
  #live: boolean;
  #quiet: boolean;
  #started = performance.now();
  #lastDraw = 0;
  #drawn = false;
  #queue: Promise<void> = Promise.resolve();

  constructor(io: Io, options: { label: string; quiet: boolean }) {
    this.#io = io;
    this.#label = options.label;
    this.#quiet = options.quiet;
    this.#live = !options.quiet && io.tty.stderr;
  }

  /** Restarts the clock (call when the first record can be read). */
  start(): void {
    this.#started = performance.now();
  }

  /** Called after each record; redraws the progress line when it is due. */
  tick = (stats: Readonly<RunStats>): void => {
    if (!this.#live) return;
    const now = performance.now();
    if (now - this.#lastDraw < REDRAW_MS) return;
    this.#lastDraw = now;
    const seconds = (now - this.#started) / 1000;
    const errors = stats.errors === 1 ? "1 error" : `${stats.errors} errors`;
    const text = `${this.#label}: ${stats.done} done, ${errors}, ${rate(stats.done, seconds)}/s`;
    this.#drawn = true;
    this.#write(`\r\x1b[2K${text.slice(0, 200)}`);
  };

  /** Clears the progress line and prints the summary (unless quiet). */
  async finish(result: RunResult): Promise<void> {
    if (this.#drawn) this.#write("\r\x1b[2K");
    this.#drawn = false;
    await this.#queue;
    if (this.#quiet) return;
    const seconds = (performance.now() - this.#started) / 1000;
    const s = style(useColor(this.#io));
    const errors = result.errors === 1 ? "1 error" : `${result.errors} errors`;
    const calls = result.calls === 1 ? "1 call" : `${result.calls} calls`;
    const records = result.records === 1 ? "1 record" : `${result.records} records`;
    const line = `${this.#label}: ${records}, ${calls}, ${errors} in ${seconds.toFixed(2)}s (${
      rate(result.calls, seconds)
    } calls/s)${why(result)}`;
    await printErr(this.#io, result.errors > 0 ? s.yellow(line) : s.dim(line));
  }

  #write(text: string): void {
    const bytes = new TextEncoder().encode(text);
    this.#queue = this.#queue.then(async () => {
      try {
        await this.#io.stderr.write(bytes);
      } catch { /* stderr closed */ }
    });
  }
}

function rate(count: number, seconds: number): string {
  return seconds > 0 ? Math.round(count / seconds).toString() : "0";
}

function why(result: RunResult): string {
  if (result.fatal !== undefined) return "; the server went away, later records were not called";
  const breaker = result.breaker;
  if (breaker !== undefined && result.stop !== "interrupted" && result.stop !== "broken_pipe") {
    return `; stopped calling after ${breaker.timeouts} calls in a row timed out ` +
      `(--max-timeouts ${breaker.timeouts}), later records were not attempted`;
  }
  switch (result.stop) {
    case "end":
      return "";
    case "fail_fast":
      return "; stopped at the first failed record (--fail-fast)";
    case "broken_pipe":
      return "; stopped: stdout was closed";
    case "interrupted":
      return "; interrupted";
  }
}
