/**
 * The ajv classes of the copy of ajv 8 that the MCP SDK bundles (as ESM), for
 * argument validation (lib/args/validate.ts). The SDK evaluates that copy
 * whenever it is loaded, so taking the classes from it costs nothing more,
 * where loading the npm `ajv` package (CommonJS) costs ~40 ms of a cold
 * `jn cat`.
 *
 * The SDK exports the draft-07 `Ajv` class; its `Ajv2020` and `Ajv2019` are
 * reached through the engines of its `AjvJsonSchemaValidator` (an instance's
 * constructor), created only when a schema of that dialect is validated.
 * When the SDK's shape is not the one expected, there are none and the
 * caller falls back to the npm package (lib/client/schema_engine.ts).
 *
 * @module
 */

import type { AjvClass, AjvEngines } from "../args/ajv_engines.ts";

interface SdkValidator {
  readonly ajv: object;
  _engineFor?(schema: object): object;
}

const DRAFT_2019 = { $schema: "https://json-schema.org/draft/2019-09/schema" };

/** The SDK's ajv classes, or `undefined` when they cannot be reached. */
export async function sdkAjvEngines(): Promise<AjvEngines | undefined> {
  const { Ajv, AjvJsonSchemaValidator } = await import(
    "@modelcontextprotocol/client/validators/ajv"
  );
  const validator = new AjvJsonSchemaValidator() as unknown as SdkValidator;
  if (typeof Ajv !== "function" || typeof validator._engineFor !== "function") return undefined;
  let v2019: AjvClass | undefined;
  let v2020: AjvClass | undefined;
  return {
    draft7: () => Ajv as unknown as AjvClass,
    v2019: () => v2019 ??= validator._engineFor!(DRAFT_2019).constructor as AjvClass,
    v2020: () => v2020 ??= validator.ajv.constructor as AjvClass,
  };
}
