/**
 * The audit log of `serve`: one NDJSON line per tool call, appended to a
 * file — when, which source and tool, the names of the arguments (never
 * their values), the outcome and how long it took.
 *
 * Guarantees: lines are written whole and in the order calls ended (one
 * write at a time, the file opened in append mode, created 0600); a failed
 * write is reported once and does not stop serving; `close()` waits for the
 * lines still being written.
 *
 * @module
 */

import type { CallRecord } from "../serve/types.ts";

/** An open audit log. */
export interface AuditLog {
  write(record: CallRecord): void;
  close(): Promise<void>;
}

/** Opens (creating) the audit log at `path` for appending. */
export async function openAudit(
  path: string,
  onError: (message: string) => void,
): Promise<AuditLog> {
  const file = await Deno.open(path, { append: true, create: true, mode: 0o600 });
  const encoder = new TextEncoder();
  let queue = Promise.resolve();
  let failed = false;
  return {
    write(record) {
      const line = encoder.encode(`${JSON.stringify(record)}\n`);
      queue = queue.then(async () => {
        let written = 0;
        while (written < line.length) written += await file.write(line.subarray(written));
      }).catch((error) => {
        if (!failed) onError(`cannot write the audit log ${path}: ${(error as Error).message}`);
        failed = true;
      });
    },
    async close() {
      await queue;
      file.close();
    },
  };
}
