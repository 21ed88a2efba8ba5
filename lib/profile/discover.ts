/**
 * Finding a server's profile across the layers. The first layer (project,
 * user, jn_home, bundled) whose `NAME/` directory holds `_meta.json` (or
 * `_meta.jsonc`) defines the server: its launch config wins whole. The same
 * directory in lower layers extends it with their tool files (see merge.ts);
 * a directory in a higher layer without `_meta.json` is reported as ignored,
 * so a cloned project can never add tools to a server it does not define.
 *
 * @module
 */

import { ConfigError } from "../errors.ts";
import type { DirContents } from "./dir_contents.ts";
import { type Layer, PROFILE_FILE, SERVER_NAME } from "./layers.ts";

/** One layer's directory of one server. */
export interface ServerDir {
  layer: Layer;
  server: string;
  /** Profile file names in it, sorted. */
  files: string[];
  /** `_meta.json` or `_meta.jsonc`, when present. */
  metaFile?: string;
  /** What was read of it (empty for an invalid directory). */
  contents: DirContents;
  /** Why the directory cannot be used (only from {@linkcode allServerDirs}). */
  error?: string;
}

/** Where a server's profile comes from. */
export interface ServerLocation {
  name: string;
  /** The directory whose `_meta.json` defines the server. */
  defining: ServerDir;
  /** The defining directory, then the server's directories in lower layers. */
  chain: ServerDir[];
  /** Directories in higher layers without `_meta.json` (their files are not used). */
  ignored: ServerDir[];
}

/** The server's directory in one layer, or undefined. */
export async function serverDir(layer: Layer, server: string): Promise<ServerDir | undefined> {
  const contents = await layer.readServer(server);
  const files = contents === undefined ? [] : [...contents.texts.keys()].sort();
  if (contents === undefined || files.length === 0) return undefined; // nothing to contribute
  const metas = files.filter((f) => f === "_meta.json" || f === "_meta.jsonc");
  if (metas.length > 1) {
    throw new ConfigError(
      `Profile "@${server}" has both _meta.json and _meta.jsonc in ${layer.path(server)}`,
      { path: layer.path(server), hint: "keep one of them" },
    );
  }
  return { layer, server, files, metaFile: metas[0], contents };
}

/** Locates a server in the layers; undefined when no layer defines it. */
export async function locateServer(
  name: string,
  layers: readonly Layer[],
): Promise<ServerLocation | undefined> {
  if (!SERVER_NAME.test(name)) return undefined;
  const dirs: ServerDir[] = [];
  for (const layer of layers) {
    const dir = await serverDir(layer, name);
    if (dir !== undefined) dirs.push(dir);
  }
  const index = dirs.findIndex((dir) => dir.metaFile !== undefined);
  if (index === -1) return undefined;
  return {
    name,
    defining: dirs[index],
    chain: dirs.slice(index),
    ignored: dirs.slice(0, index),
  };
}

/** Every server directory of every layer, in layer order then by name. */
export async function allServerDirs(layers: readonly Layer[]): Promise<ServerDir[]> {
  const out: ServerDir[] = [];
  for (const layer of layers) {
    for (const server of await layer.servers()) {
      try {
        const dir = await serverDir(layer, server);
        if (dir !== undefined) out.push(dir);
      } catch (error) {
        if (!(error instanceof ConfigError)) throw error;
        const path = layer.path(server);
        const contents = { path, realPath: path, texts: new Map<string, string>() };
        out.push({ layer, server, files: [], contents, error: error.message });
      }
    }
  }
  return out;
}

/** The profile tool name of a tool file (`search.jsonc` → `search`); undefined for `_…` files. */
export function toolFileName(file: string): string | undefined {
  const match = PROFILE_FILE.exec(file);
  if (!match || match[1].startsWith("_")) return undefined;
  return match[1];
}
