/**
 * Drift as text for people, the same wherever it is shown: the warning (or
 * the report before the error) of the check on use, the report of
 * `jn profile validate|diff|update`, the behavioural warning after a call.
 * Pure: the caller picks the colours (lib/output/style.ts), redacts secrets
 * and makes server text visible before printing.
 *
 * @module
 */

import type { Style } from "../output/style.ts";
import type { SchemaChange } from "../schema/diff.ts";
import { schemaDifferences } from "../schema/same.ts";
import type { OutputFormatDrift } from "./check.ts";
import { plural } from "./plural.ts";
import type { DriftReport } from "./report.ts";

/**
 * What the check on use prints for a changed profile: the warning with the
 * changes, the hashes and the options (`schema_validation: warn`), or the
 * changes and the hashes only, before the error that stops the run.
 *
 * @example
 * ```ts
 * driftWarningText(report, style(false), { stop: false });
 * // "jn: warning: the MCP server schema of @demo has changed since the profile was written\n…"
 * ```
 */
export function driftWarningText(
  report: DriftReport,
  s: Style,
  options: { stop: boolean },
): string {
  if (unaffected(report)) {
    return `${s.yellow("jn:")} ${report.server}: no change for callers: the server's schema ` +
      `hash changed, but its schemas mean the same (a reordered type list or a $ref refactor)\n` +
      `hint: record the new hash: jn profile update ${report.server}`;
  }
  const lines = options.stop ? [...changeLines(report, s), "", ...hashLines(report), ""] : [
    `${
      s.yellow("jn: warning:")
    } the MCP server schema of ${report.server} has changed since the profile was written`,
    ...warningLines(report, s),
    "",
    ...changeLines(report, s),
    "",
    ...hashLines(report),
    "",
    "Options:",
    `  1. Update the profile: jn profile update ${report.server}`,
    `  2. See the changes:    jn profile diff ${report.server}`,
    "  3. Ignore (may cause errors): rerun with --ignore-schema",
  ];
  return lines.join("\n");
}

/** The report of `jn profile validate` (`verdict`) and `jn profile diff`. */
export function driftReportText(
  report: DriftReport,
  s: Style,
  options: { verdict: boolean },
): string {
  const { counts } = report;
  const summary = [
    counts.breaking > 0 ? plural(counts.breaking, "breaking change") : "",
    counts.nonBreaking > 0 ? plural(counts.nonBreaking, "non-breaking change") : "",
    counts.behavioural > 0 ? plural(counts.behavioural, "behavioural change") : "",
  ].filter(Boolean).join(", ");
  const lines: string[] = [];
  if (report.status === "unknown") {
    lines.push(`${report.server}: unknown — the profile has no schema_hash`);
  } else if (report.status === "valid") {
    lines.push(
      `${report.server}: valid (schema hash ${report.current_hash})${
        summary ? `; ${summary}` : ""
      }`,
    );
  } else if (unaffected(report)) {
    lines.push(
      `${report.server}: no change for callers — the schema hash differs, the schemas mean the same`,
    );
  } else {
    lines.push(`${report.server}: changed — ${summary || "the schema hash differs"}`);
  }
  lines.push(...warningLines(report, s));
  if (unaffected(report)) {
    lines.push("", ...hashLines(report));
  } else if (report.changes.length > 0 || report.status === "changed") {
    lines.push("", ...changeLines(report, s, { texts: true }), "", ...hashLines(report));
  }
  if (report.status === "unknown") {
    lines.push("", `hint: record the current schema: jn profile update ${report.server}`);
  } else if (unaffected(report)) {
    lines.push("", `hint: record the new hash: jn profile update ${report.server}`);
  } else if (report.status === "changed" || (!options.verdict && report.changes.length > 0)) {
    lines.push("", `Fix: jn profile update ${report.server}`);
  }
  return lines.join("\n") + "\n";
}

/** The warning after a call whose result differs from the profile's `output_format`. */
export function outputFormatText(drift: OutputFormatDrift, s: Style): string {
  const { change, profile, tool } = drift;
  return `${s.yellow("jn: warning:")} ${change.message} (behavioural)\n` +
    `hint: if that is how @${profile.name}/${tool.name} answers now, change "output_format" in ${
      tool.file ?? profile.metaFile
    }`;
}

/** One `warning:` line per schema read leniently. */
function warningLines(report: DriftReport, s: Style): string[] {
  return (report.warnings ?? []).map((w) => `${s.yellow("warning:")} ${w}`);
}

/** A changed hash behind which no call sees a difference. */
function unaffected(report: DriftReport): boolean {
  return report.status === "changed" && report.changes.length === 0 &&
    report.callers === "unaffected";
}

/**
 * `Changes detected:` and one line per change, its severity in brackets;
 * with `texts`, a changed description is followed by its texts (`was:`
 * where the profile recorded it, `now:`): what a model reads, in full; a
 * change of what a host shows (title, annotations…) by its fields now; and
 * a schema change no row names by the places it differs, with their values.
 */
function changeLines(
  report: DriftReport,
  s: Style,
  options: { texts?: boolean } = {},
): string[] {
  if (report.changes.length === 0) {
    return [
      "Changes detected: none in the tools the profile records (its snapshots do not cover what changed)",
    ];
  }
  const lines = ["Changes detected:"];
  for (const change of report.changes) {
    lines.push(`  - ${changeText(change, s)}`);
    if (options.texts && change.kind === "description_changed") {
      if (Object.hasOwn(change, "old")) lines.push(descriptionText("was", change.old, s));
      lines.push(descriptionText("now", change.new, s));
    }
    if (options.texts && UNNAMED.includes(change.kind)) lines.push(...whereText(change, s));
    if (options.texts && change.kind === "display_changed") lines.push(...displayText(change, s));
  }
  return lines;
}

/** `      now: title: TEXT`, per display field that changed (its value now; `(none)`: gone). */
function displayText(change: SchemaChange, s: Style): string[] {
  const now = (change.new ?? {}) as Record<string, unknown>;
  return Object.entries(now).map(([field, value]) => {
    const text = value === null
      ? s.dim("(none)")
      : typeof value === "string"
      ? value
      : JSON.stringify(value);
    return `      ${s.dim("now:")} ${field}: ${text}`;
  });
}

/** The changes no classified row names: their places are shown, with what is there. */
const UNNAMED: readonly string[] = ["input_schema_changed", "output_schema_changed"];
const MAX_PLACES = 5;

/** `      at PATH:` and its `was:`/`now:` values, per place the schemas differ (a few). */
function whereText(change: SchemaChange, s: Style): string[] {
  const places = schemaDifferences(change.old, change.new, MAX_PLACES + 1);
  const lines: string[] = [];
  for (const place of places.slice(0, MAX_PLACES)) {
    lines.push(`      ${s.dim("at")} ${place.path}:`);
    for (const label of ["was", "now"] as const) {
      const value = label === "was" ? place.old : place.new;
      const text = value === undefined
        ? s.dim("(none)")
        : typeof value === "string"
        ? value
        : JSON.stringify(value);
      lines.push(`        ${s.dim(`${label}:`)} ${text}`);
    }
  }
  if (places.length > MAX_PLACES) lines.push(`      ${s.dim("… and more")}`);
  return lines;
}

/** `      was: TEXT`, its further lines indented under the first. */
function descriptionText(label: string, text: unknown, s: Style): string {
  const shown = typeof text === "string" && text !== "" ? text : s.dim("(none)");
  return `      ${s.dim(`${label}:`)} ${shown.replaceAll("\n", "\n           ")}`;
}

/** One change: its message and its severity. */
function changeText(change: SchemaChange, s: Style): string {
  const tag = change.severity === "breaking"
    ? s.red("breaking")
    : change.severity === "behavioural"
    ? s.yellow("behavioural")
    : s.dim("non-breaking");
  return `${change.message} (${tag})`;
}

/** The seed's two hash lines. */
function hashLines(report: DriftReport): string[] {
  return [
    `Profile hash: ${report.profile_hash ?? "(none)"}`,
    `Current hash: ${report.current_hash}`,
  ];
}
