/**
 * Regenerates lib/cli/help_text.ts, the help texts and completion scripts `main.ts` prints without
 * loading the CLI: run it after changing any command, flag or description.
 *
 * @module
 */

import { completionCatalog, helpCatalog, helpTextModule } from "../lib/cli/help_catalog.ts";

const target = new URL("../lib/cli/help_text.ts", import.meta.url);
await Deno.writeTextFile(target, helpTextModule(await helpCatalog(), await completionCatalog()));
await new Deno.Command("deno", { args: ["fmt", "-q", target.pathname] }).output();
await Deno.stderr.write(new TextEncoder().encode(`wrote ${target.pathname}\n`));
