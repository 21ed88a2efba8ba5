/**
 * What a schema engine (validate.ts) needs of ajv: the three dialects'
 * classes, handed in by the caller. The one ajv jn validates with is the
 * copy the MCP SDK bundles (lib/session/ajv_engines.ts), which every session
 * loads anyway; lib/args itself loads no ajv.
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
