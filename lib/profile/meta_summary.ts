/**
 * What `profile list` shows of a `_meta.json` (a {@linkcode MetaSummary}):
 * its description, its inline tools' names, whether lower layers' tool files
 * extend it — or why it is invalid. The JSONC parser and the field checks
 * load on the first file summarised: the bundled layer's summaries are
 * precomputed by scripts/bundle_profiles.ts with these functions, so a
 * listing of bundled profiles alone loads neither.
 *
 * @module
 */

import { JnError } from "../errors.ts";
import type { MetaDef, MetaSummary } from "./types.ts";

/** What the listing shows of a checked `_meta.json`. */
export function metaSummary(meta: MetaDef): MetaSummary {
  const summary: MetaSummary = {};
  if (meta.description !== undefined) summary.description = meta.description;
  const tools = Object.keys(meta.tools ?? {});
  if (tools.length > 0) summary.tools = tools.sort();
  if (meta.inherit_tools === false) summary.inherit_tools = false;
  return summary;
}

/**
 * Parses and checks a `_meta.json`'s text (`path` as messages show it) and
 * summarises it, or says why it is invalid.
 */
export async function readMetaSummary(text: string, path: string): Promise<MetaSummary> {
  const [{ parseJsonc }, { checkMeta }] = await Promise.all([
    import("./load.ts"),
    import("./fields.ts"),
  ]);
  try {
    return metaSummary(checkMeta(parseJsonc(text, path)));
  } catch (error) {
    if (error instanceof JnError) return { error: error.message };
    return { error: `Cannot read ${path}: ${(error as Error).message}` };
  }
}
