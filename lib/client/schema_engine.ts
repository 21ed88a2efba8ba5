/**
 * The JSON Schema engine that validates a call's arguments, created once per
 * process and only when a call needs it: over the ajv the MCP SDK bundles
 * (already in memory once a session is open, ~40 ms less than loading the
 * npm package), else over the npm `ajv` package. Either way the same ajv 8
 * with the same options (lib/args/validate.ts).
 *
 * @module
 */

import { npmAjvEngines } from "../args/ajv_engines.ts";
import { createSchemaEngine, type SchemaEngine } from "../args/validate.ts";

let engine: Promise<SchemaEngine> | undefined;

/** The process's argument-validation engine. */
export function schemaEngine(): Promise<SchemaEngine> {
  engine ??= (async () => {
    const { sdkAjvEngines } = await import("../session/ajv_engines.ts");
    return createSchemaEngine(await sdkAjvEngines() ?? await npmAjvEngines());
  })();
  return engine;
}
