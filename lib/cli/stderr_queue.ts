/**
 * The lines a command says on stderr while its server talks (logs, notices,
 * debug traces), written one after another in the order they were said.
 *
 * Guarantees: lines are written whole and in order; at most
 * {@linkcode MAX_QUEUED_CHARS} characters wait to be written — past that (a
 * stderr no one reads: a suspended terminal, a forwarding caller that stopped
 * reading, while the server floods) lines are dropped, and the first drop
 * is said once, so a flood cannot grow jn's memory without bound; a line that must
 * precede what follows (`print`) is waited for.
 *
 * @module
 */

import { type Io, printErr } from "./io.ts";

/** The most characters of stderr lines waiting to be written (about 8 MiB of text). */
export const MAX_QUEUED_CHARS = 8 * 1024 * 1024;

/** The notice written once when lines are dropped. */
export const DROPPED_NOTICE =
  "jn: warning: stderr is not read fast enough: some lines (the server's log) were dropped";

/** A bounded queue of stderr lines. */
export class StderrQueue {
  #io: Io;
  #queue = Promise.resolve();
  #queued = 0;
  #dropped = false;

  constructor(io: Io) {
    this.#io = io;
  }

  /** Resolves when everything queued so far is written. */
  written(): Promise<void> {
    return this.#queue;
  }

  /** Queues a line; dropped (said once) while too much waits. */
  say(text: string): void {
    if (this.#queued + text.length > MAX_QUEUED_CHARS) {
      if (this.#dropped) return;
      this.#dropped = true;
      text = DROPPED_NOTICE;
    }
    this.#queued += text.length;
    this.#queue = this.#queue.then(async () => {
      await printErr(this.#io, text);
      this.#queued -= text.length;
    });
  }

  /** Queues a line and waits for it (it precedes what follows). */
  print(text: string): Promise<void> {
    this.say(text);
    return this.#queue;
  }
}
