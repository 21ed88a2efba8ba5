/**
 * jn's entry point: wires the process's argv and stdio to the CLI.
 * `jn --version` is answered before the CLI (commander and the command
 * modules, ~60 ms to load) is even imported.
 *
 * @module
 */

import { VERSION } from "./lib/version.ts";

if (import.meta.main) {
  if (Deno.args.length === 1 && (Deno.args[0] === "-V" || Deno.args[0] === "--version")) {
    Deno.exit(printVersion());
  }
  const { runProcess } = await import("./lib/cli/main.ts");
  Deno.exit(await runProcess(Deno.args));
}

function printVersion(): number {
  const bytes = new TextEncoder().encode(`${VERSION}\n`);
  try {
    for (let offset = 0; offset < bytes.length;) {
      offset += Deno.stdout.writeSync(bytes.subarray(offset));
    }
  } catch {
    // A closed stdout is not worth an error (as with --help).
  }
  return 0;
}
