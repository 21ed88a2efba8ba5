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
 * names and files ending in `.json`/`.jsonc` are profile files: a name from
 * the command line is never joined into a path. A server's directory is read
 * once, through its real path (see dir_contents.ts); the project layer's
 * directories are read whole, for trust.
 *
 * `JN_HOME` must be absolute: a relative one would make a directory of
 * wherever jn runs (a cloned repository) a layer that needs no trust.
 *
 * @module
 */

import { isAbsolutePath as isAbsolute, joinPath as join, userJnDir } from "./paths.ts";
import { ConfigError } from "../errors.ts";
import { BUNDLED_PROFILES, BUNDLED_SUMMARIES } from "./bundled_data.ts";
import { type DirContents, PROFILE_FILE, readProfileDir } from "./dir_contents.ts";
import type { LayerName, MetaSummary } from "./types.ts";

export { PROFILE_FILE };

/** A valid server (directory) name: what `@server` accepts, never `.` or `..`. */
export const SERVER_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

/** One layer of profiles. */
export interface Layer {
  name: LayerName;
  /** The directory holding server directories (absolute), or `bundled:`. */
  root: string;
  /** Whether jn writes here (`profile create/update`); the bundled layer is read-only. */
  writable: boolean;
  /** Names of the server directories, sorted. */
  servers(): Promise<string[]>;
  /** Reads a server's directory once (its profile files; the project layer's whole); undefined when absent. */
  readServer(server: string): Promise<DirContents | undefined>;
  /** The path of a server directory or a file in it, as messages show it. */
  path(server: string, file?: string): string;
  /**
   * Precomputed summaries of its servers' `_meta.json` for `profile list`
   * (the bundled layer's, generated with its files), by server name.
   */
  summaries?: Readonly<Record<string, MetaSummary>>;
}

/** Where to look: the caller's directory and environment. */
export interface LayerOptions {
  /** The caller's directory (the project layer is `.jn/profiles/mcp/` in it). */
  cwd: string;
  /** The caller's environment (`HOME`, `JN_HOME`). */
  env: Record<string, string>;
}

export { homeDir, userJnDir } from "./paths.ts";

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
  const jnHome = jnHomeDir(options.env);
  if (jnHome) layers.push(dirLayer("jn_home", join(jnHome, "profiles", "mcp")));
  layers.push(bundledLayer());
  return layers;
}

/** `$JN_HOME`, when set; a relative one is refused (exit 3) rather than read from the current directory. */
export function jnHomeDir(env: Record<string, string>): string | undefined {
  const value = env.JN_HOME;
  if (!value) return undefined;
  if (!isAbsolute(value)) {
    throw new ConfigError(`JN_HOME must be an absolute path, got "${value}"`, {
      hint: `set it to an absolute path, e.g. export JN_HOME="$PWD/${value}"`,
    });
  }
  return value;
}

function dirLayer(name: LayerName, root: string): Layer {
  return {
    name,
    root,
    writable: true,
    servers: () => serverNames(root),
    readServer: (server) => readProfileDir(join(root, server), { whole: name === "project" }),
    path: (server, file) => file === undefined ? join(root, server) : join(root, server, file),
  };
}

/**
 * Names of the server directories in `dir` (symlinks followed). Read
 * synchronously: one small directory (usually absent), and an async read
 * costs `profile list` more event-loop turns than the read itself.
 */
function serverNames(dir: string): Promise<string[]> {
  const names: string[] = [];
  try {
    for (const entry of Deno.readDirSync(dir)) {
      if (!SERVER_NAME.test(entry.name)) continue;
      let isDir = entry.isDirectory;
      if (entry.isSymlink) {
        let info: Deno.FileInfo | undefined;
        try {
          info = Deno.statSync(join(dir, entry.name));
        } catch {
          info = undefined;
        }
        isDir = info?.isDirectory ?? false;
      }
      if (isDir) names.push(entry.name);
    }
  } catch (error) {
    if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory) {
      return Promise.resolve([]);
    }
    return Promise.reject(error);
  }
  return Promise.resolve(names.sort());
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
    readServer: (server) => {
      const texts = files.get(server);
      const path = `bundled:${server}`;
      return Promise.resolve(texts && { path, realPath: path, texts: new Map(texts) });
    },
    path: (server, file) => file === undefined ? `bundled:${server}` : `bundled:${server}/${file}`,
    summaries: BUNDLED_SUMMARIES,
  };
}
