/**
 * Which file runs this jn when it is not the source tree's `main.ts`: jn's
 * bundle records its `main.js` here as it starts (scripts/bundle_entry.ts),
 * so that jn starting itself (`@demo`, a profile whose `command` is `"jn"`:
 * self_command.ts) runs the same bundle wherever it lives. The entry is kept
 * on the global object, under a registered symbol: the bundle's start-up
 * and its commands are built apart, each with its own copy of this module,
 * and both must see the one entry. No imports: the bundle's start-up loads
 * this module for every command.
 *
 * @module
 */

const KEY = Symbol.for("jn.bundleEntry");

/** Records the URL of the bundle's entry point (`file:///…/main.js`). */
export function recordBundleEntry(url: string): void {
  (globalThis as Record<symbol, unknown>)[KEY] = url;
}

/** The bundle's entry point, when this jn runs from a bundle. */
export function bundleEntry(): string | undefined {
  const url = (globalThis as Record<symbol, unknown>)[KEY];
  return typeof url === "string" ? url : undefined;
}
