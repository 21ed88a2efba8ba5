/**
 * The ajv jn validates arguments with (lib/args/validate.ts): the copy of
 * ajv 8 that the MCP SDK bundles (as ESM) and evaluates whenever a session
 * is open, so validation loads no second ajv (docs/performance.md, "Second
 * implementations", measures what the npm package would cost).
 *
 * The SDK exports the draft-07 `Ajv` class; it does not export `Ajv2019` and
 * `Ajv2020` (upstream: modelcontextprotocol/typescript-sdk#2339), which are
 * reached through its `AjvJsonSchemaValidator`: the constructor of the engine
 * it picks for a schema of that dialect. That is the SDK's private
 * `_engineFor`, stable for the pinned SDK version (deno.json);
 * tests/perf/ajv_engines_test.ts fails when an upgrade moves it, and so does
 * this module, with a message saying so, rather than validating with the
 * wrong dialect.
 *
 * @module
 */

import type { AjvClass, AjvEngines } from "../args/ajv_engines.ts";

interface SdkValidator {
  readonly ajv: object;
  _engineFor?(schema: object): object;
}

const DRAFT_2019 = { $schema: "https://json-schema.org/draft/2019-09/schema" };

/** The SDK's ajv classes; throws when the SDK no longer has them where jn reaches them. */
export async function sdkAjvEngines(): Promise<AjvEngines> {
  const { Ajv, AjvJsonSchemaValidator } = await import(
    "@modelcontextprotocol/client/validators/ajv"
  );
  const validator = new AjvJsonSchemaValidator() as unknown as SdkValidator;
  if (typeof Ajv !== "function" || typeof validator._engineFor !== "function") {
    throw new Error(
      "the MCP SDK's bundled ajv is not where jn reaches it (AjvJsonSchemaValidator._engineFor): " +
        "the SDK was upgraded without lib/session/ajv_engines.ts",
    );
  }
  let v2019: AjvClass | undefined;
  let v2020: AjvClass | undefined;
  return {
    draft7: () => Ajv as unknown as AjvClass,
    v2019: () => v2019 ??= validator._engineFor!(DRAFT_2019).constructor as AjvClass,
    v2020: () => v2020 ??= validator.ajv.constructor as AjvClass,
  };
}
