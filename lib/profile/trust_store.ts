/**
 * The trust records of project profiles, in `~/.local/jn/trust.json` (mode
 * 0600, written atomically):
 *
 * ```json
 * {"version": 2, "profiles": {"/real/path/.jn/profiles/mcp/gh": {
 *   "server": "gh", "path": "/work/.jn/profiles/mcp/gh", "real_path": "/real/path/.jn/profiles/mcp/gh",
 *   "digest": "sha256:…", "files": {"_meta.json": "sha256:…", "run.sh": "sha256:…"},
 *   "meta_fields": {"command": "sha256:…", "args": "sha256:…"}, "trusted_at": "…"}}}
 * ```
 *
 * Records are keyed by the directory's real path. A record of jn 0.1
 * (`"version": 1`: a digest of the launch fields only) is kept in the file
 * but never honoured: {@linkcode trustRecord} does not return it.
 *
 * @module
 */

import { joinPath as join } from "./paths.ts";
import { ConfigError } from "../errors.ts";
import { isPlainObject } from "./fields.ts";
import { userJnDir } from "./layers.ts";

/** What `jn profile trust` recorded of a project profile directory. */
export interface TrustRecord {
  /** The profile's name when it was trusted. */
  server: string;
  /** The directory as it was named (`<cwd>/.jn/profiles/mcp/NAME`). */
  path: string;
  /** Its real path, through which its files were read: the record's key. */
  real_path: string;
  /** `sha256:HEX` over every entry of the directory. */
  digest: string;
  /** Every entry: relative path → fingerprint (see dir_contents.ts). */
  files: Record<string, string>;
  /** Each top-level field of `_meta.json` as written → `sha256:HEX` of its canonical JSON. */
  meta_fields: Record<string, string>;
  /** When (ISO 8601). */
  trusted_at: string;
}

/** The trust file: records by real path (a record may be an old, unusable one). */
export interface TrustStore {
  version: 2;
  profiles: Record<string, unknown>;
}

/** The trust store's path. */
export function trustFilePath(env: Record<string, string>): string {
  const dir = userJnDir(env);
  if (dir === undefined) {
    throw new ConfigError("Cannot find the user's jn directory: HOME is not set", {
      hint: "set HOME to your home directory",
    });
  }
  return join(dir, "trust.json");
}

/** The record at a key, when it is a current (version 2) one. */
export function trustRecord(store: TrustStore, key: string): TrustRecord | undefined {
  const value = Object.hasOwn(store.profiles, key) ? store.profiles[key] : undefined;
  return isCurrentRecord(value) ? value : undefined;
}

/** Whether a stored value is a complete version 2 record (not jn 0.1's launch-fields digest). */
export function isCurrentRecord(value: unknown): value is TrustRecord {
  return isPlainObject(value) && typeof value.server === "string" &&
    typeof value.path === "string" && typeof value.real_path === "string" &&
    typeof value.digest === "string" && isPlainObject(value.files) &&
    isPlainObject(value.meta_fields);
}

/** Reads the store; an absent file is an empty store. */
export async function readTrustStore(env: Record<string, string>): Promise<TrustStore> {
  const path = trustFilePath(env);
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return { version: 2, profiles: {} };
    throw error;
  }
  try {
    const value = JSON.parse(text);
    if (isPlainObject(value) && isPlainObject(value.profiles)) {
      return { version: 2, profiles: { ...value.profiles } };
    }
  } catch { /* reported below */ }
  throw new ConfigError(`Invalid trust store ${path}: expected {"version": 2, "profiles": {…}}`, {
    path,
    hint: "delete the file to forget every trust, then trust your project profiles again",
  });
}

/** Writes the store (0600, atomically: a temporary file renamed over it). */
export async function writeTrustStore(
  store: TrustStore,
  env: Record<string, string>,
): Promise<void> {
  const path = trustFilePath(env);
  await Deno.mkdir(join(path, ".."), { recursive: true, mode: 0o700 });
  const temp = `${path}.${crypto.randomUUID()}.tmp`;
  try {
    await Deno.writeTextFile(temp, JSON.stringify(store, null, 2) + "\n", { mode: 0o600 });
    await Deno.rename(temp, path);
  } catch (error) {
    await Deno.remove(temp).catch(() => {});
    throw error;
  }
}
