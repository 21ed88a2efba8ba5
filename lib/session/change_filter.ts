/**
 * Coalescing of a server's change notifications — `notifications/resources/
 * updated` of one URI, a `notifications/{tools,resources,prompts}/
 * list_changed` — before the SDK sees them (lib/session/tap.ts applies it to
 * every message received).
 *
 * Guarantees: a change that repeats one already handed on since jn last sent
 * a request is dropped, since what it says cannot be read before jn asks
 * again; after a request, the next change is handed on (nothing that could
 * be news is lost). A server's flood of them (a million a second) so costs a
 * JSON parse each, not a validation and a handler call each, and jn's memory
 * stays flat while a read waits behind the flood. Every other message passes.
 * At most {@linkcode MAX_CHANGES} distinct changes are remembered between
 * two requests (more URIs than that are not coalesced, only passed on).
 *
 * @module
 */

/** Notifications that say "something changed, read it again". */
const CHANGES = new Set([
  "notifications/resources/updated",
  "notifications/resources/list_changed",
  "notifications/tools/list_changed",
  "notifications/prompts/list_changed",
]);

/** The most distinct changes remembered between two requests. */
export const MAX_CHANGES = 64;
/** A change with a longer URI is not remembered (nor coalesced). */
const MAX_CHANGE_KEY = 1024;

/** The changes handed on since jn last sent a request. */
export class ChangeFilter {
  #seen = new Set<string>();

  /** Whether `message` repeats a change already handed on (drop it); remembers it otherwise. */
  repeats(message: Record<string, unknown>): boolean {
    const method = message.method;
    if (typeof method !== "string" || !CHANGES.has(method) || "id" in message) return false;
    const uri = (message.params as { uri?: unknown } | undefined)?.uri;
    const key = typeof uri === "string" ? `${method} ${uri}` : method;
    if (this.#seen.has(key)) return true;
    if (key.length <= MAX_CHANGE_KEY && this.#seen.size < MAX_CHANGES) this.#seen.add(key);
    return false;
  }

  /** jn sent a request: what changes from now on may not be in its answer. */
  requestSent(): void {
    this.#seen.clear();
  }
}
