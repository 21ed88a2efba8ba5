/**
 * A profile compared with the live tool list (SPEC §5): the seed's hash
 * first, then the classified changes. The status is
 *
 * - `unknown`: the profile has no `schema_hash` (changes against its
 *   snapshots are still listed);
 * - `valid`: the hash matches and nothing breaking was found (the hash does
 *   not see nested types or enums, so the diff runs anyway);
 * - `changed`: the hash differs, or a breaking change hides behind an equal hash.
 *
 * `callers` says what a changed hash means for a call: `unaffected` when the
 * diff found nothing and every tool was compared against an exact snapshot
 * (a reordered type list or a `$ref` refactor moves the seed's hash, which
 * reads `type` as written, but no call sees it).
 *
 * @module
 */

import {
  type ChangeCounts,
  classify,
  diffSchemas,
  type ExpectedTool,
  type SchemaChange,
} from "../schema/diff.ts";
import { quote } from "../schema/change.ts";
import { malformedRequired } from "../schema/schema_view.ts";
import { schemaHash } from "../schema/hash.ts";
import type { ToolInfo } from "../types.ts";
import { profileExpectations } from "./expected.ts";
import type { Profile } from "../profile/types.ts";

/** The result of comparing a profile with its live server. */
export interface DriftReport {
  /** `@name`. */
  server: string;
  /** `valid`, `changed`, or `unknown` (the profile records no hash). */
  status: "valid" | "changed" | "unknown";
  /** The profile's `schema_hash`, when it has one. */
  profile_hash?: string;
  /** The hash of the live tools. */
  current_hash: string;
  /**
   * Every change, classified: the description changes first (of tools and
   * of their parameters: what a model reads, to review before anything
   * else) with the display changes (what a host shows or acts on: title,
   * annotations…), then the others; each part sorted by tool, then path.
   */
  changes: SchemaChange[];
  /** How many changes of each severity. */
  counts: ChangeCounts;
  /**
   * `affected`: there are changes; `unaffected`: none, and every tool has a
   * snapshot to compare with (no change for callers); `unknown`: none found,
   * but the profile's snapshots do not cover every tool.
   */
  callers: "affected" | "unaffected" | "unknown";
  /**
   * What the comparison had to read leniently, one line each: a `required`
   * that is not an array of strings (in a snapshot or a live schema) is read
   * as its strings only.
   */
  warnings: string[];
}

/** Compares a resolved profile with the server's tools. */
export function driftReport(profile: Profile, live: readonly ToolInfo[]): DriftReport {
  const expected = profileExpectations(profile);
  const changes = descriptionsFirst(diffSchemas(expected.tools, live, {
    usedParams: expected.usedParams,
    complete: expected.complete,
  }));
  const counts = classify(changes);
  const current = schemaHash(live);
  const recorded = profile.meta.schema_hash;
  const status = recorded === undefined
    ? "unknown"
    : recorded === current && counts.breaking === 0
    ? "valid"
    : "changed";
  return {
    server: `@${profile.name}`,
    status,
    ...(recorded === undefined ? {} : { profile_hash: recorded }),
    current_hash: current,
    changes,
    counts,
    callers: changes.length > 0 ? "affected" : expected.complete ? "unaffected" : "unknown",
    warnings: schemaWarnings(expected.tools, live),
  };
}

/**
 * The description changes (of tools and of their parameters) and the
 * changes of what a host shows of a tool (title, annotations…), then the
 * others, each in order.
 */
export function descriptionsFirst(changes: readonly SchemaChange[]): SchemaChange[] {
  const first = (c: SchemaChange) =>
    c.kind === "description_changed" || c.kind === "display_changed";
  return [...changes.filter(first), ...changes.filter((c) => !first(c))];
}

/** A warning per malformed `required`, in the snapshots and in the live schemas. */
function schemaWarnings(expected: readonly ExpectedTool[], live: readonly ToolInfo[]): string[] {
  const out: string[] = [];
  const check = (tool: string, schema: unknown, what: string) => {
    for (const path of malformedRequired(schema)) {
      const where = path === "" ? "" : ` at ${quote(path)}`;
      out.push(
        `Tool ${quote(tool)}: "required"${where} of ${what} is not an array of strings ` +
          `(read as its strings only)`,
      );
    }
  };
  for (const tool of expected) {
    check(tool.name, tool.inputSchema, "the profile's inputSchema");
    check(tool.name, tool.outputSchema, "the profile's outputSchema");
  }
  for (const tool of live) {
    check(tool.name, tool.inputSchema, "the server's inputSchema");
    check(tool.name, tool.outputSchema, "the server's outputSchema");
  }
  return out;
}
