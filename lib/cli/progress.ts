/**
 * Progress of a request on stderr: a redrawn bar on a TTY, one line per
 * update with `--progress`, nothing otherwise; a task's status changes are
 * shown the same way (`note`). Never touches stdout. The
 * server's progress message is shown on one line with its control characters
 * made visible (a CR or an escape in it cannot redraw the terminal).
 *
 * @module
 */

import { visible } from "../output/visible.ts";
import type { ProgressUpdate } from "../types.ts";
import { type Io, printErr } from "./io.ts";

/** Shows progress updates of one request. */
export class ProgressReporter {
  #io: Io;
  #label: string;
  #mode: "bar" | "lines" | "off";
  #drawn = false;
  #queue: Promise<void> = Promise.resolve();

  constructor(io: Io, label: string, options: { lines: boolean; quiet: boolean }) {
    this.#io = io;
    this.#label = label;
    this.#mode = options.lines ? "lines" : options.quiet || !io.tty.stderr ? "off" : "bar";
  }

  /** True when updates are shown at all. */
  get active(): boolean {
    return this.#mode !== "off";
  }

  /** Shows one update. */
  update(update: ProgressUpdate): void {
    if (this.#mode === "off") return;
    const text = this.#mode === "bar" ? `\r\x1b[2K${this.#bar(update)}` : this.#line(update);
    if (this.#mode === "bar") this.#drawn = true;
    this.#queue = this.#queue.then(() => this.#write(text));
  }

  /**
   * Shows a line of status (a task's), in the style of an update; with
   * `keep`, a bar's line stays and what follows starts below it (a question
   * of the server comes next).
   */
  note(text: string, options: { keep?: boolean } = {}): void {
    if (this.#mode === "off") return;
    const line = visible(text, { oneLine: true });
    if (this.#mode === "lines") {
      this.#queue = this.#queue.then(() => this.#write(`${this.#label}: ${line}\n`));
      return;
    }
    const bar = `\r\x1b[2K${`${this.#label} ${line}`.slice(0, 200)}`;
    if (options.keep !== true) {
      this.#drawn = true;
      this.#queue = this.#queue.then(() => this.#write(bar));
      return;
    }
    // A kept line ends with a newline, which #write sends through printErr (escapes made
    // visible): the redraw itself goes first, raw.
    this.#drawn = false;
    this.#queue = this.#queue
      .then(() => this.#write("\r\x1b[2K"))
      .then(() => this.#write(`${this.#label} ${line}`.slice(0, 200) + "\n"));
  }

  /** Clears the bar (call before writing anything else to stderr, and at the end). */
  async done(): Promise<void> {
    if (this.#drawn) this.#queue = this.#queue.then(() => this.#write("\r\x1b[2K"));
    this.#drawn = false;
    await this.#queue;
  }

  #line(update: ProgressUpdate): string {
    const amount = update.total !== undefined
      ? `${update.progress}/${update.total}`
      : `${update.progress}`;
    return `${this.#label}: progress ${amount}${message(update)}\n`;
  }

  #bar(update: ProgressUpdate): string {
    const width = 24;
    const total = update.total && update.total > 0 ? update.total : undefined;
    const ratio = total ? Math.min(1, update.progress / total) : undefined;
    const filled = ratio === undefined ? 0 : Math.round(ratio * width);
    const bar = ratio === undefined
      ? "…".padEnd(width, " ")
      : "█".repeat(filled) + "░".repeat(width - filled);
    const amount = total ? `${update.progress}/${total}` : `${update.progress}`;
    return `${this.#label} ${bar} ${amount}${message(update)}`.slice(0, 200);
  }

  async #write(text: string): Promise<void> {
    if (text.endsWith("\n")) {
      await printErr(this.#io, text);
      return;
    }
    try {
      await this.#io.stderr.write(new TextEncoder().encode(text));
    } catch { /* stderr closed */ }
  }
}

/** ` MESSAGE`, safe for a terminal, or nothing. */
function message(update: ProgressUpdate): string {
  return update.message ? ` ${visible(String(update.message), { oneLine: true })}` : "";
}
