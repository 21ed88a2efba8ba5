/**
 * Every profile directory of every layer, with what it contributes: the
 * directory that defines a server, lower layers' directories whose tools
 * extend it, directories it shadows, higher directories without `_meta.json`
 * that are ignored, and invalid ones (with the error, so one broken file does
 * not hide the others). Read as written: no substitution, nothing launched.
 *
 * @module
 */

import { JnError } from "../errors.ts";
import { allServerDirs, type ServerDir, toolFileName } from "./discover.ts";
import { checkMeta } from "./fields.ts";
import { type LayerOptions, profileLayers } from "./layers.ts";
import { parseJsonc } from "./load.ts";
import type { LayerName, MetaDef } from "./types.ts";

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
  const metas = new Map<ServerDir, MetaDef | Error>();
  for (const dir of dirs) {
    if (dir.metaFile !== undefined) metas.set(dir, readMeta(dir));
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
    if (meta instanceof Error) return { ...entry, status: "invalid", error: meta.message };
    if (meta?.description !== undefined) entry.description = meta.description;
    if (owner === undefined) return { ...entry, status: "no-meta" };
    if (owner === dir) return entry;
    entry.defined_in = owner.layer.name;
    if (order(dir) < order(owner)) return { ...entry, status: "ignored" };
    const inherits = !(ownerMeta instanceof Error) && ownerMeta?.inherit_tools !== false;
    if (inherits && entry.tools.length > 0) return { ...entry, status: "extends" };
    return { ...entry, status: dir.metaFile === undefined ? "ignored" : "shadowed" };
  });
}

function readMeta(dir: ServerDir): MetaDef | Error {
  const path = dir.layer.path(dir.server, dir.metaFile);
  try {
    return checkMeta(parseJsonc(dir.contents.texts.get(dir.metaFile!) ?? "", path));
  } catch (error) {
    if (error instanceof JnError) return error;
    return new Error(`Cannot read ${path}: ${(error as Error).message}`);
  }
}

function toolNames(dir: ServerDir, meta: MetaDef | Error | undefined): string[] {
  const names = new Set<string>();
  for (const file of dir.files) {
    const name = toolFileName(file);
    if (name !== undefined) names.add(name);
  }
  if (meta !== undefined && !(meta instanceof Error)) {
    for (const name of Object.keys(meta.tools ?? {})) names.add(name);
  }
  return [...names].sort();
}
