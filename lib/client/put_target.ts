/**
 * Decides what `jn put TARGET` writes to: an MCP tool or a file; for an
 * MCP target, what runs and what each call starts from
 * ({@linkcode preparePut}).
 *
 * The rule: a target starting with `mcp+` or `@` is an MCP target (a naked
 * URI or a profile reference); anything else is a path, which must end in
 * `.json` (one JSON array), `.ndjson` or `.jsonl` (one record per line),
 * case-insensitively. Any other target is a usage error with a hint, so a
 * typo never silently creates a file. (A file whose name starts with `@` is
 * written as `./@name.json`.)
 *
 * An MCP target then says what to run by the operation its source names
 * ({@linkcode putMode}): a tool is called once per record; no operation at
 * all (`@server`, `mcp+…` without `?tool=`) runs the operation each record
 * names (lib/put/operation.ts); a resource, prompt, list or task is a usage
 * error. Pure, no I/O.
 *
 * @module
 */

import { type ArgPairs, collectArgs } from "../args/collect.ts";
import { UsageError } from "../errors.ts";
import type { Operation } from "../uri/source.ts";
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

/** What `jn put` does with an MCP target. */
export type PutMode = { kind: "tool"; name: string } | { kind: "operations" };

/**
 * What `jn put` does with an MCP target whose source names `operation`;
 * throws a `UsageError` for an operation it cannot put to.
 *
 * @example
 * ```ts
 * putMode({ kind: "tool", name: "echo" }, "@demo/echo"); // { kind: "tool", name: "echo" }
 * putMode({ kind: "none" }, "@demo"); // { kind: "operations" }
 * ```
 */
export function putMode(operation: Operation, text: string): PutMode {
  if (operation.kind === "tool") return { kind: "tool", name: operation.name };
  if (operation.kind === "none") return { kind: "operations" };
  throw new UsageError(`Cannot put to "${text}": it names a ${operation.kind}, not a tool`, {
    hint: "put calls a tool once per record (@server/TOOL, ?tool=NAME); to a server alone " +
      '(@server) it runs the operation each record names, e.g. {"resource": "URI"}',
  });
}

/**
 * What a put to `target` does ({@linkcode putMode}) and the arguments every
 * record starts from — its query and defaults, `args` and `arg` merged
 * (lib/args/collect.ts) — checked before any server starts: a UsageError
 * (exit 2) for a target it cannot put to or a malformed `--args`/`--arg`.
 */
export function preparePut(
  target: Target,
  input: ArgInput = {},
): { mode: PutMode; args: ArgPairs } {
  const mode = putMode(target.operation, target.source.raw);
  const args = collectArgs({
    query: target.queryArgs,
    args: input.args,
    arg: input.arg ?? [],
    defaults: target.defaults,
  });
  return { mode, args };
}
