/**
 * Which ajv classes `validate.ts` compiles schemas with. By default the npm
 * `ajv` package, which is CommonJS and costs ~40 ms to load under Deno. A
 * caller that already holds ajv — the CLI, through the copy bundled (as ESM)
 * in the MCP SDK it has loaded anyway — provides its classes BEFORE
 * `validate.ts` is first imported; the npm package is then never loaded.
 * Provided or not, validation is the same ajv 8 with the same options.
 *
 * @module
 */

import type { Options, ValidateFunction } from "ajv";

/** What `validate.ts` needs of an ajv instance. */
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

let provided: AjvEngines | undefined;

/** Makes `validate.ts` use these classes; effective only before it is first imported. */
export function provideAjvEngines(engines: AjvEngines): void {
  provided = engines;
}

/** The engines provided so far, if any. */
export function providedAjvEngines(): AjvEngines | undefined {
  return provided;
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
