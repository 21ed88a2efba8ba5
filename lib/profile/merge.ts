/**
 * Parses a located server's files (the texts discover.ts read, once) and
 * merges them into one profile, as written (no substitution yet):
 *
 * - The launch config and profile-wide fields come from the defining layer's
 *   `_meta.json` alone; `_meta.json` files are never merged field by field.
 * - Tools: in one directory, a tool file `NAME.json` and an entry `NAME` of
 *   `_meta.json`'s `tools` map define the same tool; the entry's fields win
 *   (`defaults` merge key by key: tool file < `_meta.json`).
 * - Across layers, the defining directory's tools come first, then the tools
 *   of the same server's directories in lower layers that the higher ones do
 *   not define, so overriding a bundled server's `_meta.json` keeps its tool
 *   files. `"inherit_tools": false` in `_meta.json` turns that off.
 *
 * @module
 */

import { ConfigError } from "../errors.ts";
import type { ServerDir, ServerLocation } from "./discover.ts";
import { toolFileName } from "./discover.ts";
import { checkMeta, checkToolFile } from "./fields.ts";
import { type JsoncDoc, parseJsonc } from "./load.ts";
import type { LayerName, MetaDef, ToolDef } from "./types.ts";

/** One tool as written, before substitution. */
export interface RawTool {
  name: string;
  layer: LayerName;
  /** The tool file, when there is one. */
  fileDoc?: JsoncDoc;
  fileDef?: ToolDef;
  /** The `_meta.json` holding the inline entry, when there is one. */
  inlineDoc?: JsoncDoc;
  inlineDef?: ToolDef;
}

/** A server's profile as written. */
export interface RawProfile {
  name: string;
  location: ServerLocation;
  metaDoc: JsoncDoc;
  meta: MetaDef;
  tools: RawTool[];
}

/** Merges a located server's profile files (as read by discover.ts). */
export function readProfile(location: ServerLocation): RawProfile {
  const { defining } = location;
  const metaDoc = readDoc(defining, defining.metaFile!);
  const meta = checkMeta(metaDoc);
  const dirs = meta.inherit_tools === false ? [defining] : location.chain;
  const tools = new Map<string, RawTool>();
  for (const dir of dirs) {
    for (const tool of dirTools(dir, dir === defining ? metaDoc : undefined)) {
      if (!tools.has(tool.name)) tools.set(tool.name, tool);
    }
  }
  const sorted = [...tools.values()].sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  return { name: location.name, location, metaDoc, meta, tools: sorted };
}

/** The tools of one directory: its tool files and its `_meta.json`'s inline map. */
function dirTools(dir: ServerDir, knownMeta: JsoncDoc | undefined): RawTool[] {
  const out = new Map<string, RawTool>();
  const layer = dir.layer.name;
  const byName = new Map<string, string>();
  for (const file of dir.files) {
    const name = toolFileName(file);
    if (name === undefined) continue;
    const other = byName.get(name);
    if (other !== undefined) {
      throw new ConfigError(
        `Profile "@${dir.server}" defines tool "${name}" twice: ${other} and ${file} in ${
          dir.layer.path(dir.server)
        }`,
        { path: dir.layer.path(dir.server), hint: "keep one of them" },
      );
    }
    byName.set(name, file);
    const fileDoc = readDoc(dir, file);
    out.set(name, { name, layer, fileDoc, fileDef: checkToolFile(fileDoc) });
  }
  if (dir.metaFile !== undefined) {
    const metaDoc = knownMeta ?? readDoc(dir, dir.metaFile);
    const meta = knownMeta ? (metaDoc.value as MetaDef) : checkMeta(metaDoc);
    for (const [name, inlineDef] of Object.entries(meta.tools ?? {})) {
      const tool = out.get(name) ?? { name, layer };
      out.set(name, { ...tool, inlineDoc: metaDoc, inlineDef });
    }
  }
  return [...out.values()];
}

function readDoc(dir: ServerDir, file: string): JsoncDoc {
  const path = dir.layer.path(dir.server, file);
  const text = dir.contents.texts.get(file);
  if (text === undefined) {
    throw new ConfigError(`Cannot read profile file ${path}: it is not a file`, { path });
  }
  return parseJsonc(text, path);
}

/** Merges a tool's file definition with its inline one (inline fields win, defaults key-wise). */
export function mergeToolDefs(
  fileDef: ToolDef | undefined,
  inlineDef: ToolDef | undefined,
): ToolDef {
  const merged: ToolDef = { ...fileDef, ...inlineDef };
  if (fileDef?.defaults !== undefined || inlineDef?.defaults !== undefined) {
    merged.defaults = { ...fileDef?.defaults, ...inlineDef?.defaults };
  }
  return merged;
}
