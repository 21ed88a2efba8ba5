/**
 * A cheap structural check of a `tools/call` result, given to the SDK as the
 * result schema of the request (a Standard Schema). The SDK's own schema
 * parses every result with zod, which dominates the cost of a call when many
 * run back to back (`jn put`); this check accepts exactly the shape jn relies
 * on and rejects the rest, so a malformed answer is still a protocol error.
 *
 * @module
 */

import type { StandardSchemaV1 } from "@modelcontextprotocol/client";
import type { ToolCallResult } from "../types.ts";

type Issue = { message: string; path?: PropertyKey[] };

function check(value: unknown): Issue[] {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return [{ message: "the result is not an object" }];
  }
  const result = value as Record<string, unknown>;
  const issues: Issue[] = [];
  const content = result.content;
  if (content !== undefined) {
    if (!Array.isArray(content)) {
      issues.push({ message: "content is not an array", path: ["content"] });
    } else {
      for (let i = 0; i < content.length; i++) {
        const item = content[i] as { type?: unknown } | null;
        if (typeof item !== "object" || item === null || typeof item.type !== "string") {
          issues.push({ message: "a content item has no type", path: ["content", i] });
        }
      }
    }
  }
  const structured = result.structuredContent;
  if (structured !== undefined && (typeof structured !== "object" || structured === null)) {
    issues.push({ message: "structuredContent is not an object", path: ["structuredContent"] });
  }
  if (result.isError !== undefined && typeof result.isError !== "boolean") {
    issues.push({ message: "isError is not a boolean", path: ["isError"] });
  }
  return issues;
}

/** The Standard Schema of a `tools/call` result that jn accepts (content defaults to []). */
export const CALL_TOOL_RESULT: StandardSchemaV1<unknown, ToolCallResult> = {
  "~standard": {
    version: 1,
    vendor: "jn",
    validate(value: unknown) {
      const issues = check(value);
      if (issues.length > 0) return { issues };
      const result = value as ToolCallResult;
      return { value: result.content === undefined ? { ...result, content: [] } : result };
    },
  },
};
