/**
 * The four places profiles live, highest precedence first (SPEC §4):
 *
 * | layer   | directory                                   |
 * |---------|---------------------------------------------|
 * | project | `.jn/profiles/mcp/` in the current directory |
 * | user    | `~/.local/jn/profiles/mcp/`                  |
 * | jn_home | `$JN_HOME/profiles/mcp/` (when set)          |
 * | bundled | embedded in jn (`profiles/mcp/` of the repo) |
 *
 * Each layer is read through the same small interface, so the bundled one
 * needs no files on disk. Only directory entries whose names are valid server
 * names and files ending in `.json`/`.jsonc` are seen: a name from the
 * command line is never joined into a path.
 *
 * @module
 */

import { isAbsolute, join } from "node:path";
import { BUNDLED_PROFILES } from "./bundled_data.ts";
import type { LayerName } from "./types.ts";

/** A valid server (directory) name: what `@server` accepts, never `.` or `..`. */
export const SERVER_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;
/** A profile file name: `NAME.json` or `NAME.jsonc`. */
export const PROFILE_FILE = /^([^/\\]+)\.(json|jsonc)$/;

/** One layer of profiles. */
export interface Layer {
  name: LayerName;
  /** The directory holding server directories (absolute), or `bundled:`. */
  root: string;
  /** Whether jn writes here (`profile create/update`); the bundled layer is read-only. */
  writable: boolean;
  /** Names of the server directories, sorted. */
  servers(): Promise<string[]>;
  /** Profile file names in a server directory (`_meta.json`, `search.jsonc`…), sorted. */
  files(server: string): Promise<string[]>;
  /** A file's text. */
  read(server: string, file: string): Promise<string>;
  /** The path of a server directory or a file in it, as messages show it. */
  path(server: string, file?: string): string;
}

/** Where to look: the caller's directory and environment. */
export interface LayerOptions {
  cwd: string;
  env: Record<string, string>;
}

/** The user's home directory from the environment, if any. */
export function homeDir(env: Record<string, string>): string | undefined {
  const home = env.HOME || env.USERPROFILE;
  return home && isAbsolute(home) ? home : undefined;
}

/** The user's jn directory (`~/.local/jn`): user profiles, trust records, tokens. */
export function userJnDir(env: Record<string, string>): string | undefined {
  const home = homeDir(env);
  return home === undefined ? undefined : join(home, ".local", "jn");
}

/** The root directory of a writable layer, or undefined when it has none. */
export function layerRoot(name: "project" | "user", options: LayerOptions): string | undefined {
  if (name === "project") return join(options.cwd, ".jn", "profiles", "mcp");
  const dir = userJnDir(options.env);
  return dir === undefined ? undefined : join(dir, "profiles", "mcp");
}

/** Every layer, highest precedence first. */
export function profileLayers(options: LayerOptions): Layer[] {
  const layers: Layer[] = [dirLayer("project", layerRoot("project", options)!)];
  const user = layerRoot("user", options);
  if (user !== undefined) layers.push(dirLayer("user", user));
  const jnHome = options.env.JN_HOME;
  if (jnHome) layers.push(dirLayer("jn_home", join(jnHome, "profiles", "mcp")));
  layers.push(bundledLayer());
  return layers;
}

function dirLayer(name: LayerName, root: string): Layer {
  return {
    name,
    root,
    writable: true,
    servers: () => entries(root, (entry) => SERVER_NAME.test(entry) ? "dir" : undefined),
    files: (server) =>
      entries(join(root, server), (entry) => PROFILE_FILE.test(entry) ? "file" : undefined),
    read: (server, file) => Deno.readTextFile(join(root, server, file)),
    path: (server, file) => file === undefined ? join(root, server) : join(root, server, file),
  };
}

/** Names in `dir` accepted by `want` and of the kind it asks for (symlinks followed). */
async function entries(
  dir: string,
  want: (name: string) => "dir" | "file" | undefined,
): Promise<string[]> {
  const names: string[] = [];
  try {
    for await (const entry of Deno.readDir(dir)) {
      const kind = want(entry.name);
      if (kind === undefined) continue;
      let isDir = entry.isDirectory;
      let isFile = entry.isFile;
      if (entry.isSymlink) {
        const info = await Deno.stat(join(dir, entry.name)).catch(() => undefined);
        isDir = info?.isDirectory ?? false;
        isFile = info?.isFile ?? false;
      }
      if (kind === "dir" ? isDir : isFile) names.push(entry.name);
    }
  } catch (error) {
    if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory) {
      return [];
    }
    throw error;
  }
  return names.sort();
}

/** The profiles embedded in jn (generated from `profiles/mcp/` by scripts/bundle_profiles.ts). */
export function bundledLayer(): Layer {
  const files = new Map<string, Map<string, string>>();
  for (const [path, text] of Object.entries(BUNDLED_PROFILES)) {
    const [server, file] = path.split("/");
    if (!files.has(server)) files.set(server, new Map());
    files.get(server)!.set(file, text);
  }
  return {
    name: "bundled",
    root: "bundled:",
    writable: false,
    servers: () => Promise.resolve([...files.keys()].sort()),
    files: (server) => Promise.resolve([...(files.get(server)?.keys() ?? [])].sort()),
    read: (server, file) => {
      const text = files.get(server)?.get(file);
      return text === undefined
        ? Promise.reject(new Deno.errors.NotFound(`bundled:${server}/${file}`))
        : Promise.resolve(text);
    },
    path: (server, file) => file === undefined ? `bundled:${server}` : `bundled:${server}/${file}`,
  };
}
