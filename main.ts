/**
 * jn's entry point: wires the process's argv and stdio to the CLI.
 *
 * @module
 */

import { denoIo } from "./lib/cli/io.ts";
import { main } from "./lib/cli/main.ts";

if (import.meta.main) Deno.exit(await main(Deno.args, denoIo()));
