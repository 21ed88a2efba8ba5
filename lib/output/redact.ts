/**
 * Redaction of secrets (values substituted from the environment) in anything
 * jn prints: messages, `profile info`, the `--debug` protocol log.
 *
 * @module
 */

/** The text printed in place of a secret. */
export const REDACTED = "***";

/** Replaces every occurrence of every secret (longest first) with `***`. */
export function redact(text: string, secrets: readonly string[]): string {
  if (secrets.length === 0) return text;
  let result = text;
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) {
    // Very short values (`1`, `on`) would shred unrelated text; they are not secrets worth hiding.
    if (secret.length < 4) continue;
    result = result.split(secret).join(REDACTED);
    const json = JSON.stringify(secret).slice(1, -1);
    if (json !== secret) result = result.split(json).join(REDACTED);
  }
  return result;
}
