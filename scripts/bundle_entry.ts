/**
 * The entry point of jn's bundle (scripts/bundle.ts): main.ts's start-up,
 * with each command's module (the command table's `module`) and the other
 * modules lib/cli/main.ts loads beside them (`LOADED`) as entry points of
 * the bundle too, laid out as in the source tree beside this module's
 * `scripts/bundle_entry.js`, and loaded by a computed URL as the source
 * tree loads them (so `deno run` does not analyse every command's graph at
 * start-up). The path only exists in the bundle: this module is
 * not meant to run from source (main.ts is). It records the bundle's
 * `main.js` as the entry that runs this jn (lib/profile/self_entry.ts), for
 * `@demo` and any profile whose `command` is `"jn"`.
 *
 * @module
 */

import { sessionsNamedBy } from "../lib/cli/forward_lookup.ts";
import { recordBundleEntry } from "../lib/profile/self_entry.ts";

/** A module's place in the bundle, relative to its main.js (this module, bundled). */
const bundled = (path: string) => new URL(path, import.meta.url).href;

// jn starting itself (`@demo`) runs this bundle, wherever it lives.
recordBundleEntry(bundled("main.js"));
// A command a running session takes runs there (lib/cli/forward.ts); the CLI loads otherwise.
const sessions = sessionsNamedBy(Deno.args);
if (sessions !== undefined) {
  const { forwardToSession } = await import("../lib/cli/forward.ts");
  const forwarded = await forwardToSession(Deno.args, sessions);
  if (forwarded !== undefined) Deno.exit(forwarded);
}
const { runProcess } = await import("../lib/cli/main.ts");
Deno.exit(
  await runProcess(
    Deno.args,
    (module) => import(bundled(`lib/cli/${module.replace(/\.ts$/, ".js")}`)),
  ),
);
