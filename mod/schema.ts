/**
 * Tool schemas compared the way jn's drift check compares them: the
 * seed-compatible schema hash of a server's tools ({@linkcode schemaHash},
 * what a profile's `schema_hash` records) and of each tool
 * ({@linkcode toolHashes}), and the classified changes (breaking,
 * non-breaking, behavioural) a drift report lists.
 *
 * @example The hash a profile records
 * ```ts
 * import { schemaHash, toolHashes } from "@jn/jn/schema";
 *
 * const tools = [{ name: "echo", inputSchema: { type: "object", properties: { text: { type: "string" } } } }];
 * console.log(schemaHash(tools)); // 32 hex digits
 * console.log(Object.keys(toolHashes(tools))); // ["echo"]
 * ```
 *
 * @module
 */

export { type HashableTool, schemaHash, toolHashes } from "../lib/schema/hash.ts";
export type { ChangeCounts, ChangeKind, SchemaChange, Severity } from "../lib/schema/diff.ts";
export type { DriftVerdict, OutputFormatDrift } from "../lib/drift/check.ts";
