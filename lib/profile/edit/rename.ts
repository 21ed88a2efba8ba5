/**
 * A renamed parameter followed into what a profile says about it: the keys
 * of `defaults`, of each `examples[].input`, and of `tested_with` entries
 * (objects, and `k=v&…` query strings), edited in the JSONC text in place.
 * Dotted paths rename inside nested objects; array paths are left alone.
 *
 * @module
 */

import { isPlainObject } from "../fields.ts";
import { type JsonPath, renameKey, setValue } from "./jsonc_edit.ts";
import type { RawProfile } from "../merge.ts";
import type { ToolDef } from "../types.ts";

/** A parameter renamed by the server: dotted paths, old and new. */
export interface Rename {
  from: string;
  to: string;
}

/** Renames a parameter in a tool definition's `defaults`, `examples[].input` and `tested_with`. */
export function renameEverywhere(
  text: string,
  prefix: JsonPath,
  def: ToolDef,
  rename: Rename,
): string {
  const from = rename.from.split(".");
  const to = rename.to.split(".");
  if (from.some((p) => p.includes("[")) || from.length !== to.length) return text;
  const parent = from.slice(0, -1);
  const [oldKey, newKey] = [from.at(-1)!, to.at(-1)!];
  let out = renameKey(text, [...prefix, "defaults", ...parent], oldKey, newKey);
  (Array.isArray(def.examples) ? def.examples : []).forEach((_, i) => {
    out = renameKey(out, [...prefix, "examples", i, "input", ...parent], oldKey, newKey);
  });
  return renameInTestedWith(out, [...prefix, "tested_with"], def.tested_with, rename);
}

function renameInTestedWith(text: string, path: JsonPath, value: unknown, rename: Rename): string {
  let out = text;
  (Array.isArray(value) ? value : []).forEach((entry, i) => {
    if (isPlainObject(entry)) out = renameKey(out, [...path, i], rename.from, rename.to);
    else if (typeof entry === "string" && entry.includes("=")) {
      const renamed = entry.split("&").map((pair) => {
        const [key, ...rest] = pair.split("=");
        return decodeURIComponent(key) === rename.from
          ? [encodeURIComponent(rename.to), ...rest].join("=")
          : pair;
      }).join("&");
      if (renamed !== entry) out = setValue(out, [...path, i], renamed);
    }
  });
  return out;
}

/** Renames parameters in `_meta.json`'s per-tool `tested_with` map. */
export function renameInMetaTestedWith(
  raw: RawProfile,
  renames: Map<string, Rename[]>,
  edit: (change: (text: string) => string, action: string) => void,
): void {
  const testedWith = raw.meta.tested_with;
  if (!isPlainObject(testedWith)) return;
  for (const [key, entries] of Object.entries(testedWith)) {
    const tool = raw.tools.find((t) => t.name === key);
    const serverTool = (tool?.inlineDef?.tool ?? tool?.fileDef?.tool ?? key) as string;
    for (const rename of renames.get(serverTool) ?? []) {
      edit(
        (t) => renameInTestedWith(t, ["tested_with", key], entries, rename),
        `rename "${rename.from}" to "${rename.to}" in tested_with of _meta.json`,
      );
    }
  }
}
