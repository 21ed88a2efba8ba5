/**
 * jn's entry point: wires the process's argv and stdio to the CLI
 * (lib/cli/main.ts), which reads the command line from its tables and loads
 * only the module of the command that runs.
 *
 * @module
 */

import { runProcess } from "./lib/cli/main.ts";

if (import.meta.main) Deno.exit(await runProcess(Deno.args));
