/**
 * What a host shows of a tool or acts on besides its description and its
 * schemas — its **display fields** — and their digests, which a profile's
 * snapshot records (`server_display_md5`, docs/drift.md "The display
 * digest") so that pinning and the diff see a change of any of them: a tool
 * that starts calling itself read-only (`annotations.readOnlyHint`, which
 * hosts use to skip asking the user), a new `title`, other `icons`.
 *
 * The display fields are every top-level field of a listed tool but `name`,
 * `description` (its own digest, `server_description_md5`), `inputSchema`
 * and `outputSchema` (their own snapshots) and `_meta` (protocol metadata,
 * not pinned): `title`, `annotations`, `icons`, `execution`, and any field
 * a later protocol adds. A field's digest is the MD5 (hex) of its canonical
 * JSON (keys sorted at every level), so the order a server writes keys in
 * changes nothing. Pure.
 *
 * @module
 */

import { descriptionMd5 } from "./hash.ts";
import { canonical } from "./schema_view.ts";

/** The fields of a tool that are not display fields (see the module's doc). */
const NOT_DISPLAY = new Set(["name", "description", "inputSchema", "outputSchema", "_meta"]);

/**
 * A tool's display fields, by name (sorted); a field the server left out is absent.
 *
 * @example
 * displayFields({ name: "t", inputSchema: {}, title: "T", _meta: {} }); // { title: "T" }
 */
export function displayFields(tool: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(tool).sort()) {
    if (!NOT_DISPLAY.has(key) && tool[key] !== undefined) define(out, key, tool[key]);
  }
  return out;
}

/**
 * The digest of each display field of a tool (`{}` for a tool without any):
 * what a snapshot records as `server_display_md5`.
 *
 * @example
 * displayDigests({ name: "t", inputSchema: {}, title: "" });
 * // { title: "9d4568c009d203ab10e33ea9953a0264" }
 */
export function displayDigests(tool: Readonly<Record<string, unknown>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(displayFields(tool))) {
    define(out, key, descriptionMd5(canonical(value)));
  }
  return out;
}

/**
 * The display fields whose digest differs from `recorded` (added, changed or
 * removed since), sorted; `[]` when the tool shows what was recorded.
 */
export function changedDisplayFields(
  recorded: Readonly<Record<string, unknown>>,
  tool: Readonly<Record<string, unknown>>,
): string[] {
  const now = displayDigests(tool);
  const names = new Set([...Object.keys(recorded), ...Object.keys(now)]);
  const own = (record: Readonly<Record<string, unknown>>, name: string) =>
    Object.hasOwn(record, name) ? record[name] : undefined;
  return [...names].filter((name) => own(recorded, name) !== own(now, name)).sort();
}

/** Sets an own property, whatever its name (`__proto__` included). */
function define(record: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(record, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

/** `title`, `title and annotations`, `annotations, icons and title`. */
export function fieldList(names: readonly string[]): string {
  return names.length <= 1
    ? names.join("")
    : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}
