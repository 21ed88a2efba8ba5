/**
 * What `jn profile trust` is about to record, as data: the profile's launch
 * as the user reviews it (launch_review.ts: every field that shapes a
 * launch, with warnings), every file of the directory, and what changed
 * since the last trust (a symlink with where it leads, and whether that is
 * outside what trust covers); and the lines the command prints on stderr
 * ({@linkcode trustReportText}). Texts are made visible (control characters
 * escaped) here or in launch_review.ts, once.
 *
 * @module
 */

import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { visibleLine } from "../output/visible.ts";
import { type LaunchReview, launchReview, reviewLines } from "./launch_review.ts";
import type { TrustCheck, TrustState } from "./trust.ts";
import { describeChange } from "./trust_changes.ts";
import type { Profile } from "./types.ts";

/** What `jn profile trust` is about to record. */
export interface TrustReport {
  /** The profile's name (without `@`). */
  name: string;
  /** Its directory, as named. */
  dir: string;
  /** The real path, when it differs from `dir`. */
  realDir?: string;
  /** Its launch, field by field, as the user reviews it. */
  review: LaunchReview;
  /** Every entry of the directory, sorted; a symlink with where it leads (`a -> ../b`). */
  files: string[];
  /** Its trust before this one. */
  state: TrustState;
  /** Trusted by jn 0.1 (launch fields only). */
  legacy?: boolean;
  /** When it was last trusted. */
  trustedAt?: string;
  /** What changed since (state `changed`). */
  changes?: string[];
  /** Where it was trusted (state `moved`). */
  trustedRealPath?: string;
}

/** The report of a profile about to be trusted, given its trust check. */
export async function trustReport(
  profile: Profile,
  check: TrustCheck,
  cwd: string,
): Promise<TrustReport> {
  return {
    name: profile.name,
    dir: visibleLine(profile.dir),
    ...(profile.realDir === profile.dir ? {} : { realDir: visibleLine(profile.realDir) }),
    review: await launchReview(profile, cwd),
    files: await Promise.all(
      Object.entries(profile.entries ?? {}).sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0)
        .map(([file, fingerprint]) => describeEntry(profile.realDir, file, fingerprint)),
    ),
    state: check.state,
    ...(check.legacy ? { legacy: true } : {}),
    ...(check.record ? { trustedAt: check.record.trusted_at } : {}),
    ...(check.changes ? { changes: check.changes.map(describeChange) } : {}),
    ...(check.trustedRealPath ? { trustedRealPath: visibleLine(check.trustedRealPath) } : {}),
  };
}

/** The report as the lines `jn profile trust` prints on stderr. */
export function trustReportText(report: TrustReport): string {
  const lines = [`Trusting @${report.name}: ${report.dir}`];
  const field = (label: string, value: string) =>
    lines.push(`  ${`${label}:`.padEnd(10)} ${value}`);
  if (report.realDir) field("real path", report.realDir);
  reviewLines(report.review, field);
  field("files", report.files.join(", "));
  switch (report.state) {
    case "changed":
      if (report.legacy) {
        lines.push("  last trusted by an older jn, which checked only the launch fields");
        break;
      }
      lines.push(`  changed since you trusted it (${report.trustedAt}):`);
      for (const change of report.changes ?? []) lines.push(`    ${change}`);
      break;
    case "moved":
      lines.push(
        `  you trusted it at ${report.trustedRealPath ?? "?"}: a symlink on its path changed`,
      );
      break;
    case "trusted":
      lines.push(`  unchanged since you trusted it (${report.trustedAt})`);
      break;
    case "untrusted":
    case "not-needed":
      break;
    default: {
      const never: never = report.state;
      throw new Error(`Unknown trust state ${never}`);
    }
  }
  return lines.join("\n");
}

/**
 * An entry as the report names it. Trust covers a symlink's text, not what it
 * leads to: a link that leads out of the profile's directory (`llm.sh ->
 * ../../../llm.sh`) names a file trust does not cover, and says so.
 */
async function describeEntry(root: string, file: string, fingerprint: string): Promise<string> {
  if (!fingerprint.startsWith("symlink:")) return visibleLine(file);
  const path = join(root, file);
  const target = await Deno.readLink(path).catch(() => undefined);
  if (target === undefined) return visibleLine(file);
  const inside = relative(root, resolve(dirname(path), target));
  const out = inside === ".." || inside.startsWith(`..${sep}`) || isAbsolute(inside);
  return `${visibleLine(file)} -> ${visibleLine(target)}${
    out ? " (outside the profile's directory, not covered by trust)" : ""
  }`;
}
