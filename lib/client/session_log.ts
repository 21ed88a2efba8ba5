/**
 * A session's log (`KEY.log`, 0600, next to its socket): jn's own lines —
 * started, serving, drift status, warnings of its proxy, why it ended —
 * each with its time; never a secret. Writing it is a courtesy: a line
 * that cannot be written is dropped, never an error. The file is created
 * anew when the session starts and written through that one open file: a
 * name swapped for a symlink later is never followed.
 *
 * @module
 */

import { openPrivateFile } from "./session_paths.ts";

/** The session's log: jn's own lines, never a secret (0600, next to the socket). */
export class SessionLog {
  #file?: Deno.FsFile;

  /** Creates the log at `path` (anything there replaced, no symlink followed). */
  async open(path: string): Promise<void> {
    this.#file = await openPrivateFile(path, { fresh: true });
  }

  line(text: string): void {
    if (this.#file === undefined) return;
    const bytes = new TextEncoder().encode(`${new Date().toISOString()} ${text}\n`);
    try {
      for (let at = 0; at < bytes.length;) at += this.#file.writeSync(bytes.subarray(at));
    } catch { /* the log is a courtesy */ }
  }
}
