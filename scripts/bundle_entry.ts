/**
 * The entry point of jn's bundle (scripts/bundle.ts): main.ts's start-up,
 * with the CLI as the bundle's second entry point, `lib/cli/main.js` beside
 * this module's `scripts/bundle_entry.js` (the bundler keeps the source
 * tree's layout for its entry points). It is imported by a computed URL,
 * as main.ts imports `lib/cli/main.ts`: `deno run` analyses the graph of an
 * `import()` of a literal path when the importing module loads, which made
 * `--version` and `profile list` ~5 ms slower from the bundle than from source.
 * The path only exists in the bundle: this module is not meant to run from
 * source (main.ts is).
 *
 * @module
 */

import { start } from "../main.ts";

/** The CLI's entry point in the bundle, relative to this module's place there. */
const BUNDLED_CLI = new URL("../lib/cli/main.js", import.meta.url).href;

await start(Deno.args, () => import(BUNDLED_CLI));
