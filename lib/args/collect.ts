/**
 * Merges a call's arguments from every place they can come from, with fixed
 * precedence: profile defaults < URI query < `--args JSON` < `--arg k=v`.
 * A key given by a later source replaces the earlier value entirely. Values
 * from the query and `--arg` stay raw strings (coerced later against the
 * tool's schema); values from `--args` and defaults are already typed and
 * are only validated. Pure, no I/O.
 *
 * @module
 */

import { UsageError } from "../errors.ts";
import type { RawArg } from "../uri/source.ts";

/** One argument's value and how it was given. */
export type ArgValue =
  /** From the query or `--arg`: one string per time the key was given, in order. */
  | { kind: "raw"; values: string[] }
  /** From `--args` or profile defaults: a JSON value, never coerced. */
  | { kind: "json"; value: unknown };

/** The merged arguments, in the order their keys were first given. */
export type ArgPairs = Map<string, ArgValue>;

/** Every place a call's arguments come from. */
export interface ArgSources {
  /** The URI's query arguments (`RawArg`s of a parsed source). */
  query: RawArg[];
  /** The text of `--args`: a JSON object. */
  args?: string;
  /** Each `--arg` as given: `KEY=VALUE` (the value may contain `=`). */
  arg?: string[];
  /** Typed defaults (a profile's `defaults`), below everything else. */
  defaults?: Record<string, unknown>;
}

/**
 * Merges arguments; throws a `UsageError` naming the flag for a malformed
 * `--args` or `--arg`.
 *
 * @example
 * ```ts
 * collectArgs({ query: [{ key: "n", value: "1" }], arg: ["n=2", "tag=a", "tag=b"] });
 * // Map { "n" => { kind: "raw", values: ["2"] },
 * //       "tag" => { kind: "raw", values: ["a", "b"] } }
 * ```
 */
export function collectArgs(sources: ArgSources): ArgPairs {
  const merged: ArgPairs = new Map();
  for (const [key, value] of Object.entries(sources.defaults ?? {})) {
    merged.set(key, { kind: "json", value });
  }
  mergeRaw(merged, sources.query);
  if (sources.args !== undefined) {
    for (const [key, value] of Object.entries(parseArgsFlag(sources.args))) {
      merged.set(key, { kind: "json", value });
    }
  }
  mergeRaw(merged, (sources.arg ?? []).map(parseArgFlag));
  return merged;
}

/** Raw pairs of one source: repeats accumulate, earlier sources are replaced. */
function mergeRaw(merged: ArgPairs, pairs: RawArg[]): void {
  const mine = new Set<string>();
  for (const { key, value } of pairs) {
    const current = merged.get(key);
    if (mine.has(key) && current?.kind === "raw") {
      current.values.push(value);
    } else {
      merged.set(key, { kind: "raw", values: [value] });
      mine.add(key);
    }
  }
}

/** Parses the text of `--args`, which must be a JSON object. */
function parseArgsFlag(text: string): Record<string, unknown> {
  const hint = `--args takes a JSON object, e.g. --args '{"limit": 5}'`;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new UsageError(`Invalid --args "${text}": ${detail}`, { hint, cause: error });
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    const got = value === null ? "null" : Array.isArray(value) ? "an array" : `a ${typeof value}`;
    throw new UsageError(`Invalid --args "${text}": expected a JSON object, got ${got}`, { hint });
  }
  return value as Record<string, unknown>;
}

/** Parses one `--arg KEY=VALUE`; the value is everything after the first `=`. */
export function parseArgFlag(text: string): RawArg {
  const eq = text.indexOf("=");
  if (eq === -1) {
    throw new UsageError(`Invalid --arg "${text}": expected KEY=VALUE`, {
      hint: `write --arg ${text}=VALUE (or --arg ${text}= for an empty string)`,
    });
  }
  if (eq === 0) {
    throw new UsageError(`Invalid --arg "${text}": the key is empty`, {
      hint: "write --arg KEY=VALUE",
    });
  }
  return { key: text.slice(0, eq), value: text.slice(eq + 1) };
}

/**
 * Arguments a program already holds as JSON values, as pairs: typed, so they
 * are validated but never converted. Pairs pass through unchanged.
 *
 * @example
 * ```ts
 * typedArgs({ a: 2, b: 40 }); // Map { "a" => { kind: "json", value: 2 }, "b" => … }
 * ```
 */
export function typedArgs(args: ArgPairs | Record<string, unknown> = {}): ArgPairs {
  if (args instanceof Map) return args;
  return new Map(Object.entries(args).map(([key, value]) => [key, { kind: "json", value }]));
}
