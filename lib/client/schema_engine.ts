/**
 * The JSON Schema engine that validates a call's arguments, created once per
 * process and only when a call needs it, over the ajv the MCP SDK bundles
 * (lib/session/ajv_engines.ts): the one ajv jn uses, already in memory once
 * a session is open. Options and dialects: lib/args/validate.ts.
 *
 * @module
 */

import { createSchemaEngine, type SchemaEngine } from "../args/validate.ts";

let engine: Promise<SchemaEngine> | undefined;

/** The process's argument-validation engine. */
export function schemaEngine(): Promise<SchemaEngine> {
  engine ??= (async () => {
    const { sdkAjvEngines } = await import("../session/ajv_engines.ts");
    return createSchemaEngine(await sdkAjvEngines());
  })();
  return engine;
}
