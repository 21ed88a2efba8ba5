/**
 * Listing profiles, as a verb (`jn profile list`): every profile directory
 * of every layer, with what it contributes: the
 * directory that defines a server, lower layers' directories whose tools
 * extend it, directories it shadows, higher directories without `_meta.json`
 * that are ignored, and invalid ones (with the error, so one broken file does
 * not hide the others). Read as written: no substitution, nothing launched.
 *
 * Only what the listing shows of a `_meta.json` is taken from it (a
 * {@linkcode MetaSummary}); the bundled layer's are precomputed (its
 * `summaries`), so a listing of bundled profiles alone parses no JSONC and
 * loads no parser: those modules load when a directory on disk has a
 * `_meta.json`.
 *
 * @module
 */

import { allServerDirs, type ServerDir, toolFileName } from "../profile/discover.ts";
import { type LayerOptions, profileLayers } from "../profile/layers.ts";
import { readMetaSummary } from "../profile/meta_summary.ts";
import type { LayerName, MetaSummary } from "../profile/types.ts";

/** What a directory is to its server. */
export type EntryStatus =
  | "active"
  | "extends"
  | "shadowed"
  | "ignored"
  | "no-meta"
  | "invalid";

/** One line of `profile list`. */
export interface ProfileEntry {
  /** The server's name (`@name` without the `@`). */
  name: string;
  /** The layer of this directory. */
  layer: LayerName;
  /** The directory. */
  path: string;
  /** What it contributes. */
  status: EntryStatus;
  /** The layer of the directory that defines the server, when it is another one. */
  defined_in?: LayerName;
  /** The profile's `description`. */
  description?: string;
  /** Profile tool names in this directory (tool files and the inline map). */
  tools: string[];
  /** Why the directory is invalid. */
  error?: string;
}

/** Lists every profile directory, highest layer first, then by name. */
export async function listProfiles(options: LayerOptions): Promise<ProfileEntry[]> {
  const dirs = await allServerDirs(profileLayers(options));
  const metas = new Map<ServerDir, MetaSummary>();
  for (const dir of dirs) {
    if (dir.metaFile !== undefined) metas.set(dir, await readMeta(dir));
  }
  const defining = new Map<string, ServerDir>();
  for (const dir of dirs) {
    if (dir.metaFile !== undefined && !defining.has(dir.server)) defining.set(dir.server, dir);
  }
  const order = (dir: ServerDir) => dirs.indexOf(dir);
  return dirs.map((dir): ProfileEntry => {
    const meta = metas.get(dir);
    const owner = defining.get(dir.server);
    const ownerMeta = owner && metas.get(owner);
    const entry: ProfileEntry = {
      name: dir.server,
      layer: dir.layer.name,
      path: dir.layer.path(dir.server),
      status: "active",
      tools: toolNames(dir, meta),
    };
    if (dir.error !== undefined) return { ...entry, status: "invalid", error: dir.error };
    if (meta?.error !== undefined) return { ...entry, status: "invalid", error: meta.error };
    if (meta?.description !== undefined) entry.description = meta.description;
    if (owner === undefined) return { ...entry, status: "no-meta" };
    if (owner === dir) return entry;
    entry.defined_in = owner.layer.name;
    if (order(dir) < order(owner)) return { ...entry, status: "ignored" };
    const inherits = ownerMeta?.error === undefined && ownerMeta?.inherit_tools !== false;
    if (inherits && entry.tools.length > 0) return { ...entry, status: "extends" };
    return { ...entry, status: dir.metaFile === undefined ? "ignored" : "shadowed" };
  });
}

function readMeta(dir: ServerDir): MetaSummary | Promise<MetaSummary> {
  const precomputed = dir.layer.summaries?.[dir.server];
  if (precomputed !== undefined) return precomputed;
  const path = dir.layer.path(dir.server, dir.metaFile);
  return readMetaSummary(dir.contents.texts.get(dir.metaFile!) ?? "", path);
}

function toolNames(dir: ServerDir, meta: MetaSummary | undefined): string[] {
  const names = new Set<string>();
  for (const file of dir.files) {
    const name = toolFileName(file);
    if (name !== undefined) names.add(name);
  }
  for (const name of meta?.tools ?? []) names.add(name);
  return [...names].sort();
}
