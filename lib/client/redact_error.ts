/**
 * Keeps secrets out of error reports: a profile's substituted values can end
 * up in an error's message (a server's argv in "Cannot start server …"), its
 * hint, the server's stderr tail, a stack trace printed by `--debug`, or a
 * server's JSON-RPC error (its own message and data, which serve passes on).
 *
 * @module
 */

import { redact, redactDeep } from "../output/redact.ts";

const TEXT_FIELDS = ["message", "stack", "hint", "stderrTail", "command", "serverMessage"] as const;

/** Redacts `secrets` in an error and its `cause` chain, in place; returns the error. */
export function redactError<T>(error: T, secrets: readonly string[]): T {
  if (secrets.length === 0) return error;
  let current: unknown = error;
  for (let depth = 0; current instanceof Error && depth < 8; depth++) {
    const fields = current as unknown as Record<string, unknown>;
    for (const key of TEXT_FIELDS) {
      const value = fields[key];
      if (typeof value === "string") {
        try {
          fields[key] = redact(value, secrets);
        } catch { /* a read-only field stays as it is */ }
      }
    }
    // A JSON-RPC error's data (a proxy passes it on).
    if (fields.data !== undefined && fields.data !== null) {
      try {
        fields.data = redactDeep(fields.data, secrets);
      } catch { /* a read-only field stays as it is */ }
    }
    current = current.cause;
  }
  return error;
}
