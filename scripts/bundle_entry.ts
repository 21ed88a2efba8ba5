/**
 * The entry point of jn's bundle (scripts/bundle.ts): main.ts's start-up,
 * with the modules main.ts imports by a computed URL (the CLI,
 * `lib/cli/main.js`, and the light calls, `lib/cli/light_calls.js`) as
 * entry points of the bundle too, laid out as in the source tree beside
 * this module's `scripts/bundle_entry.js`, and the commands answered
 * without commander, `lib/cli/light.js`, bundled apart as one file. They are imported by a computed
 * URL, as main.ts does: `deno run` analyses the graph of an
 * `import()` of a literal path when the importing module loads, which made
 * `--version` and `profile list` ~5 ms slower from the bundle than from source.
 * The path only exists in the bundle: this module is not meant to run from
 * source (main.ts is). It records the bundle's `main.js` as the entry that
 * runs this jn (lib/profile/self_entry.ts), for `@demo` and any profile
 * whose `command` is `"jn"`.
 *
 * @module
 */

import { start } from "../main.ts";
import { recordBundleEntry } from "../lib/profile/self_entry.ts";

/** A module's place in the bundle, relative to this module's. */
const bundled = (path: string) => new URL(`../${path}`, import.meta.url).href;

// jn starting itself (`@demo`) runs this bundle, wherever it lives.
recordBundleEntry(bundled("main.js"));
await start(Deno.args, {
  cli: () => import(bundled("lib/cli/main.js")),
  calls: () => import(bundled("lib/cli/light_calls.js")),
  light: () => import(bundled("lib/cli/light.js")),
});
