/**
 * The ajv classes a schema engine (validate.ts) compiles with, and the npm
 * `ajv` package's, loaded on demand: it is CommonJS and costs ~40 ms to load
 * under Deno, so a caller that already holds ajv — the CLI, through the copy
 * bundled (as ESM) in the MCP SDK it has loaded anyway — passes those
 * instead, and the npm package is then never loaded.
 *
 * @module
 */

import type { Options, ValidateFunction } from "ajv";

/** What a schema engine needs of an ajv instance. */
export interface AjvInstance {
  compile(schema: object): ValidateFunction;
}

/** An ajv class: the draft-07 `Ajv`, `Ajv2019` or `Ajv2020`. */
export type AjvClass = new (options: Options) => AjvInstance;

/** The three dialects' classes, each resolved on first use. */
export interface AjvEngines {
  draft7(): AjvClass;
  v2019(): AjvClass;
  v2020(): AjvClass;
}

/** The npm `ajv` package's classes. */
export async function npmAjvEngines(): Promise<AjvEngines> {
  const [{ Ajv }, { Ajv2019 }, { Ajv2020 }] = await Promise.all([
    import("ajv"),
    import("ajv/dist/2019.js"),
    import("ajv/dist/2020.js"),
  ]);
  return { draft7: () => Ajv, v2019: () => Ajv2019, v2020: () => Ajv2020 };
}
