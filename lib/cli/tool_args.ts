/**
 * Finding the tool a source names, and turning the user's arguments into the
 * JSON the tool's schema declares (converted and validated before any call;
 * ajv is loaded only when a tool is actually called, and it is the copy the
 * MCP SDK bundles, already in memory, not the npm package: ~40 ms less).
 *
 * @module
 */

import { UsageError } from "../errors.ts";
import type { ToolInfo } from "../types.ts";
import type { ArgPairs } from "../args/collect.ts";

/** The named tool, or a usage error listing the server's tools. */
export function findTool(tools: ToolInfo[], name: string, server: string): ToolInfo {
  const tool = tools.find((candidate) => candidate.name === name);
  if (tool) return tool;
  const near = tools.filter((t) => t.name.toLowerCase().includes(name.toLowerCase())).map((t) =>
    t.name
  );
  const known = tools.map((t) => t.name);
  throw new UsageError(`Tool "${name}" not found on server "${server}"`, {
    hint: near.length > 0
      ? `did you mean ${near.map((n) => `"${n}"`).join(" or ")}?`
      : known.length > 0
      ? `its tools: ${known.join(", ")}`
      : "the server offers no tools",
  });
}

/** Arguments for a call (already merged by `collectArgs`), converted and validated. */
export async function prepareToolArguments(
  tool: ToolInfo,
  pairs: ArgPairs,
): Promise<Record<string, unknown>> {
  const { schemaEngine } = await import("../client/schema_engine.ts");
  const engine = await schemaEngine();
  const { prepareArguments } = await import("../args/coerce.ts");
  return prepareArguments(pairs, { tool: tool.name, schema: tool.inputSchema, engine });
}
