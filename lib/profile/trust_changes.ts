/**
 * What changed in a project profile directory since it was trusted: files
 * added, removed or modified (by their recorded fingerprints), and for
 * `_meta.json` which of its top-level fields. Names are shown with control
 * characters made visible (they come from a repository).
 *
 * @module
 */

import { digestHex as sha256 } from "../text/digest.ts";
import type { TrustRecord } from "./trust_store.ts";
import type { MetaDef } from "./types.ts";
import { visibleLine } from "../output/visible.ts";

/** One change of one entry of the directory. */
export interface TrustChange {
  kind: "added" | "removed" | "modified";
  /** The entry's path relative to the profile directory. */
  file: string;
  /** For `_meta.json`: the top-level fields added, removed or changed. */
  fields?: string[];
}

/** `sha256:HEX` of each top-level field of `_meta.json` as written (canonical JSON). */
export async function metaFieldDigests(meta: MetaDef): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const key of Object.keys(meta).sort()) {
    Object.defineProperty(out, key, {
      value: `sha256:${await sha256(canonicalJson(meta[key]))}`,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

/** The changes from a trust record to the directory as read now. */
export async function trustChanges(
  record: TrustRecord,
  now: { entries: Record<string, string>; meta: MetaDef },
): Promise<TrustChange[]> {
  const changes: TrustChange[] = [];
  const names = [...new Set([...Object.keys(record.files), ...Object.keys(now.entries)])].sort();
  for (const file of names) {
    const before = Object.hasOwn(record.files, file) ? record.files[file] : undefined;
    const after = Object.hasOwn(now.entries, file) ? now.entries[file] : undefined;
    if (before === after) continue;
    if (before === undefined) changes.push({ kind: "added", file });
    else if (after === undefined) changes.push({ kind: "removed", file });
    else if (file === "_meta.json" || file === "_meta.jsonc") {
      changes.push({ kind: "modified", file, fields: await fieldChanges(record, now.meta) });
    } else changes.push({ kind: "modified", file });
  }
  return changes;
}

async function fieldChanges(record: TrustRecord, meta: MetaDef): Promise<string[]> {
  const now = await metaFieldDigests(meta);
  const keys = new Set([...Object.keys(record.meta_fields), ...Object.keys(now)]);
  return [...keys].filter((key) =>
    (Object.hasOwn(record.meta_fields, key) ? record.meta_fields[key] : undefined) !==
      (Object.hasOwn(now, key) ? now[key] : undefined)
  ).sort();
}

/** One change as a phrase: `modified _meta.json (args, env)`, `added leak.json`. */
export function describeChange(change: TrustChange): string {
  const fields = change.fields && change.fields.length > 0
    ? ` (${change.fields.map(visibleLine).join(", ")})`
    : "";
  return `${change.kind} ${visibleLine(change.file)}${fields}`;
}

/** Changes as one line, the first `limit` of them named: `added a.json; modified b.json; and 3 more`. */
export function describeChanges(changes: readonly TrustChange[], limit = 4): string {
  const shown = changes.slice(0, limit).map(describeChange);
  if (changes.length > limit) shown.push(`and ${changes.length - limit} more`);
  return shown.join("; ");
}

/** JSON with object keys sorted, for digests that do not depend on key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(record[k])}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}
