/**
 * A session's log (`KEY.log`, 0600, next to its socket): jn's own lines —
 * started, serving, drift status, warnings of its proxy, why it ended —
 * each with its time; never a secret. Writing it is
 * a courtesy: a line that cannot be written is dropped, never an error.
 *
 * @module
 */

/** The session's log: jn's own lines, never a secret (0600, next to the socket). */
export class SessionLog {
  path?: string;

  line(text: string): void {
    if (this.path === undefined) return;
    try {
      Deno.writeTextFileSync(this.path, `${new Date().toISOString()} ${text}\n`, {
        append: true,
        mode: 0o600,
      });
    } catch { /* the log is a courtesy */ }
  }
}
