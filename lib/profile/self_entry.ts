/**
 * Which file runs this jn when it is not the source tree's `main.ts`: jn's
 * bundle records its `main.js` here as it starts (scripts/bundle_entry.ts),
 * so that jn starting itself (`@demo`, a profile whose `command` is `"jn"`:
 * self_command.ts) runs the same bundle wherever it lives. No imports: the
 * bundle's start-up loads this module for every command.
 *
 * @module
 */

let entry: string | undefined;

/** Records the URL of the bundle's entry point (`file:///…/main.js`). */
export function recordBundleEntry(url: string): void {
  entry = url;
}

/** The bundle's entry point, when this jn runs from a bundle. */
export function bundleEntry(): string | undefined {
  return entry;
}
