/**
 * jn's entry point: wires the process's argv and stdio to the CLI.
 *
 * @module
 */

import { runProcess } from "./lib/cli/main.ts";

if (import.meta.main) Deno.exit(await runProcess(Deno.args));
