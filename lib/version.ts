/**
 * jn's version, read from deno.json at build time (JSON imports are embedded
 * by `deno compile`, so the binary needs no file beside it).
 *
 * @module
 */

import config from "../deno.json" with { type: "json" };

/** The version of jn, e.g. `0.1.0`. */
export const VERSION: string = config.version;
