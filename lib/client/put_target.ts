/**
 * Decides what `jn put TARGET` writes to: an MCP tool or a file; for a
 * tool, what each call starts from ({@linkcode preparePut}).
 *
 * The rule: a target starting with `mcp+` or `@` is an MCP target (a naked
 * URI or a profile reference); anything else is a path, which must end in
 * `.json` (one JSON array), `.ndjson` or `.jsonl` (one record per line),
 * case-insensitively. Any other target is a usage error with a hint, so a
 * typo never silently creates a file. (A file whose name starts with `@` is
 * written as `./@name.json`.) Pure, no I/O.
 *
 * @module
 */

import { type ArgPairs, collectArgs } from "../args/collect.ts";
import { UsageError } from "../errors.ts";
import type { ArgInput } from "./cat.ts";
import type { Target } from "./resolve.ts";

/** The format of a file target. */
export type FileFormat = "json" | "ndjson";

/** What a put target is. */
export type PutTarget =
  | { kind: "mcp"; text: string }
  | { kind: "file"; path: string; format: FileFormat };

/**
 * Classifies a put target; throws a `UsageError` for anything else.
 *
 * @example
 * ```ts
 * putTarget("results.json"); // { kind: "file", path: "results.json", format: "json" }
 * putTarget("@biomcp/variant_search"); // { kind: "mcp", text: "@biomcp/variant_search" }
 * ```
 */
export function putTarget(text: string): PutTarget {
  if (text.startsWith("mcp+") || text.startsWith("@")) return { kind: "mcp", text };
  const lower = text.toLowerCase();
  if (lower.endsWith(".json")) return { kind: "file", path: text, format: "json" };
  if (lower.endsWith(".ndjson") || lower.endsWith(".jsonl")) {
    return { kind: "file", path: text, format: "ndjson" };
  }
  if (text === "") {
    throw new UsageError("The put target is empty", {
      hint: 'name a tool ("mcp+…?tool=NAME", "@server/tool") or a file (out.json, out.ndjson)',
    });
  }
  throw new UsageError(
    `Cannot put to "${text}": not an MCP target (mcp+… or @server) nor a .json, .ndjson or .jsonl file`,
    {
      hint: /^[a-z][a-z0-9+.-]*:\/\//i.test(text)
        ? `MCP URIs start with "mcp+", e.g. "mcp+${text}"`
        : 'name a tool ("mcp+…?tool=NAME", "@server/tool") or a file ending in .json, .ndjson or .jsonl',
    },
  );
}

/**
 * The tool a put to `target` calls and the arguments every record starts
 * from — its query and defaults, `args` and `arg` merged
 * (lib/args/collect.ts) — after checking, before any server starts, that
 * the target names a tool. UsageError (exit 2) otherwise, or for a
 * malformed `--args`/`--arg`.
 */
export function preparePut(
  target: Target,
  input: ArgInput = {},
): { tool: string; args: ArgPairs } {
  const operation = target.operation;
  if (operation.kind !== "tool") {
    throw new UsageError(`Cannot put to "${target.source.raw}": it names no tool`, {
      hint: "put calls a tool once per record: add ?tool=NAME (see 'jn inspect SOURCE')",
    });
  }
  const args = collectArgs({
    query: target.queryArgs,
    args: input.args,
    arg: input.arg ?? [],
    defaults: target.defaults,
  });
  return { tool: operation.name, args };
}
