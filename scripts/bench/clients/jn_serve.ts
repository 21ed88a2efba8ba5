/**
 * `jn serve SOURCE` over stdio for the serve benchmark, until the CLI has
 * the command: the library's `serve()` with the CLI's defaults.
 *
 * Usage: deno run -A jn_serve.ts SOURCE…
 *
 * @module
 */

import { serve } from "../../../lib/client/serve.ts";

const served = await serve(Deno.args, { cwd: Deno.cwd(), env: Deno.env.toObject() });
await served.done;
