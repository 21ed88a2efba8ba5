/**
 * The classified schema changes of SPEC §5. A change's severity follows from
 * its kind alone (one table, below), so a kind can never be reported with two
 * severities. Lists of changes are sorted by tool, then path, then kind.
 *
 * @module
 */

import { comparePython } from "./python_json.ts";

/** How much a change matters to a profile. */
export type Severity = "breaking" | "non-breaking" | "behavioural";

/** What changed; the severity of each kind is in {@link SEVERITY}. */
export type ChangeKind =
  | "tool_removed"
  | "required_added"
  | "required_removed"
  | "param_renamed"
  | "became_required"
  | "type_changed"
  | "items_type_changed"
  | "enum_narrowed"
  | "used_param_removed"
  | "tool_added"
  | "optional_added"
  | "optional_removed"
  | "became_optional"
  | "enum_widened"
  | "description_changed"
  | "display_changed"
  | "input_schema_changed"
  | "output_format_changed"
  | "output_schema_changed"
  | "output_schema_removed"
  | "output_field_removed"
  | "output_field_renamed"
  | "output_type_changed"
  | "output_field_optional"
  | "output_enum_widened"
  | "output_field_added"
  | "output_enum_narrowed";

/** Severity of each kind; the key order is also the sort order within one path. */
export const SEVERITY: Readonly<Record<ChangeKind, Severity>> = {
  tool_removed: "breaking",
  tool_added: "non-breaking",
  description_changed: "non-breaking",
  display_changed: "non-breaking",
  input_schema_changed: "behavioural",
  output_format_changed: "behavioural",
  output_schema_changed: "behavioural",
  output_schema_removed: "breaking",
  param_renamed: "breaking",
  required_removed: "breaking",
  used_param_removed: "breaking",
  required_added: "breaking",
  became_required: "breaking",
  type_changed: "breaking",
  items_type_changed: "breaking",
  enum_narrowed: "breaking",
  optional_removed: "non-breaking",
  optional_added: "non-breaking",
  became_optional: "non-breaking",
  enum_widened: "non-breaking",
  output_field_renamed: "breaking",
  output_field_removed: "breaking",
  output_type_changed: "breaking",
  output_field_optional: "breaking",
  output_enum_widened: "breaking",
  output_field_added: "non-breaking",
  output_enum_narrowed: "non-breaking",
};

const KIND_ORDER = Object.keys(SEVERITY);

/** One difference between what a profile expects and what the server offers. */
export interface SchemaChange {
  /** What the change means for a caller: breaking, non-breaking or behavioural. */
  severity: Severity;
  /** What changed (the kind decides the severity). */
  kind: ChangeKind;
  /** The server's tool name. */
  tool: string;
  /**
   * The parameter, dotted through nested objects, `[]` for array items and
   * `[i]` for tuple items: `filters.limit`, `ids[]`, `rows[].name`. Absent for
   * changes of the tool itself.
   */
  path?: string;
  /** The value before (a type, an enum, a description, a parameter schema…). */
  old?: unknown;
  /** The value now. */
  new?: unknown;
  /** One line, in the seed's words: `Tool 'search': Required parameter 'gene' renamed to 'query'`. */
  message: string;
}

/** Counts of changes per severity. */
export interface ChangeCounts {
  /** Changes that break a call the profile makes. */
  breaking: number;
  /** Changes a caller does not notice. */
  nonBreaking: number;
  /** Changes of what a tool answers that jn cannot classify (its output format, an output schema detail). */
  behavioural: number;
}

/** Builds a change, taking its severity from its kind. */
export function makeChange(
  kind: ChangeKind,
  tool: string,
  fields: { path?: string; old?: unknown; new?: unknown; message: string },
): SchemaChange {
  // Key order is the order of the JSON output: what, where, before, after, why.
  return {
    severity: SEVERITY[kind],
    kind,
    tool,
    ...(fields.path === undefined ? {} : { path: fields.path }),
    ...(fields.old === undefined ? {} : { old: fields.old }),
    ...(fields.new === undefined ? {} : { new: fields.new }),
    message: fields.message,
  };
}

/** A change at `path` of tool `tool`, its message led by the tool's name. */
export function toolChange(
  kind: ChangeKind,
  tool: string,
  path: string,
  old: unknown,
  now: unknown,
  message: string,
): SchemaChange {
  return makeChange(kind, tool, {
    path,
    old,
    new: now,
    message: `Tool ${quote(tool)}: ${message}`,
  });
}

/** Counts changes per severity. */
export function classify(changes: readonly SchemaChange[]): ChangeCounts {
  const counts: ChangeCounts = { breaking: 0, nonBreaking: 0, behavioural: 0 };
  for (const change of changes) {
    if (change.severity === "breaking") counts.breaking++;
    else if (change.severity === "non-breaking") counts.nonBreaking++;
    else counts.behavioural++;
  }
  return counts;
}

/** Sorts by tool, then path (tool-level changes first), then kind, then message; drops duplicates. */
export function sortChanges(changes: readonly SchemaChange[]): SchemaChange[] {
  const seen = new Set<string>();
  const unique = changes.filter((c) => {
    const key = JSON.stringify([c.tool, c.path ?? null, c.kind, c.message]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return unique.sort((a, b) =>
    comparePython(a.tool, b.tool) ||
    comparePython(a.path ?? "", b.path ?? "") ||
    (a.path === undefined ? 0 : 1) - (b.path === undefined ? 0 : 1) ||
    KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind) ||
    comparePython(a.message, b.message)
  );
}

/** Quotes a name or value for a message, the seed's way: `'gene'`. */
export function quote(value: unknown): string {
  return typeof value === "string" ? `'${value}'` : JSON.stringify(value) ?? "undefined";
}
