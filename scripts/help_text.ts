/**
 * Regenerates lib/cli/help_text.ts (the help texts) and lib/cli/completion_text.ts with
 * lib/cli/completion_text/SHELL.ts (the completion scripts), which `main.ts` prints without
 * loading the CLI: run it after changing any command, flag or description.
 *
 * @module
 */

import {
  completionCatalog,
  completionTextModules,
  helpCatalog,
  helpTextModule,
} from "../lib/cli/help_catalog.ts";

const dir = new URL("../lib/cli/", import.meta.url);
const files: Record<string, string> = {
  "help_text.ts": helpTextModule(await helpCatalog()),
  ...completionTextModules(await completionCatalog()),
};
await Deno.mkdir(new URL("completion_text/", dir), { recursive: true });
const paths = Object.keys(files).map((name) => new URL(name, dir).pathname);
for (const [name, text] of Object.entries(files)) {
  await Deno.writeTextFile(new URL(name, dir), text);
}
await new Deno.Command("deno", { args: ["fmt", "-q", ...paths] }).output();
await Deno.stderr.write(new TextEncoder().encode(`wrote ${paths.join(", ")}\n`));
