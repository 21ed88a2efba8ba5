/**
 * Reading one server's profile directory, once. Its real path is resolved
 * first and every file is read through that real path, so the bytes jn
 * parses, the bytes `jn profile trust` digests and the directory a relative
 * `cwd` names are the same, whatever a symlink on the way says a moment later.
 *
 * A directory read `whole` (the project layer: files that came with a
 * repository) is fingerprinted entry by entry: every file (not only
 * `.json`/`.jsonc`), every subdirectory, every symlink (its target text; it
 * is not followed) and anything else (its kind). The profile files at the top
 * are read once and both parsed and hashed from those bytes, so what trust
 * checks is what the loader uses: no second read in between. A FIFO or
 * socket is never opened (reading it could block).
 *
 * Only regular files are read (a device such as `/dev/zero` is "other"), and
 * never more than the size limit, the way every file jn did not write is
 * read (./bounded_read.ts): a symlink to a huge file is a clear error, not an
 * exhausted memory. The limit applies to every layer, read whole or not.
 *
 * Only a directory read whole is hashed (SHA-256, lib/text/digest.ts):
 * reading the user's or `$JN_HOME`'s profiles hashes nothing.
 *
 * @module
 */

import { joinPath as join } from "./paths.ts";
import { ConfigError } from "../errors.ts";
import { readBounded } from "./bounded_read.ts";
import { digestHex as sha256 } from "../text/digest.ts";

/** A profile file name: `NAME.json` or `NAME.jsonc`. */
export const PROFILE_FILE = /^([^/\\]+)\.(json|jsonc)$/;

/** At most this much is read of a directory read whole (a repository can hold anything). */
export const WHOLE_LIMITS = { entries: 10_000, bytes: 64 * 1024 * 1024 } as const;

/** What was read of a server's directory. */
export interface DirContents {
  /** The directory as named (layer root + server name), for messages. */
  path: string;
  /** Its real path (symlinks resolved): every file was read through it. */
  realPath: string;
  /** The profile files at its top (`NAME.json`, `NAME.jsonc`): name → text. */
  texts: Map<string, string>;
  /**
   * Every entry, by path relative to the directory (`/`-separated): `sha256:HEX`
   * of a file's bytes, `dir`, `symlink:HEX` of a link's target text (plus
   * ` sha256:HEX` of what a profile file link pointed to), or `other`.
   * Only for a directory read whole.
   */
  entries?: Record<string, string>;
  /** `sha256:HEX` over `entries` (names and fingerprints, sorted). Only when read whole. */
  digest?: string;
}

/**
 * Reads a directory's profile files (and, `whole`, fingerprints everything in
 * it); undefined when there is no such directory.
 */
export async function readProfileDir(
  path: string,
  options: { whole: boolean; limits?: { entries: number; bytes: number } },
): Promise<DirContents | undefined> {
  const limits = options.limits ?? WHOLE_LIMITS;
  let realPath: string;
  try {
    realPath = await Deno.realPath(path);
    if (!(await Deno.stat(realPath)).isDirectory) return undefined;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory) {
      return undefined;
    }
    throw error;
  }
  const texts = new Map<string, string>();
  const entries: Record<string, string> = {};
  const budget = { entries: 0, bytes: 0 };
  const count = (bytes: number) => {
    budget.entries++;
    budget.bytes += bytes;
    if (budget.entries > limits.entries || budget.bytes > limits.bytes) {
      throw new ConfigError(
        `Project profile directory ${path} is too large to trust (over ${limits.entries} entries or ${limits.bytes} bytes)`,
        { path, hint: "keep only the profile's files (and small scripts it runs) in it" },
      );
    }
  };
  const walk = async (relative: string): Promise<void> => {
    const dir = relative === "" ? realPath : join(realPath, relative);
    const list: Deno.DirEntry[] = [];
    for await (const entry of Deno.readDir(dir)) list.push(entry);
    list.sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
    for (const entry of list) {
      const rel = relative === "" ? entry.name : `${relative}/${entry.name}`;
      const full = join(dir, entry.name);
      if (relative === "" && PROFILE_FILE.test(entry.name)) {
        // The loader reads a profile file even through a symlink (as it always did).
        const info = entry.isSymlink ? await Deno.stat(full).catch(() => undefined) : entry;
        const link = options.whole && entry.isSymlink
          ? `symlink:${await sha256(await Deno.readLink(full))}`
          : "";
        if (info?.isFile) {
          const bytes = await readProfileFile(full, limits.bytes - budget.bytes);
          texts.set(entry.name, decode(bytes));
          if (!options.whole) continue;
          count(bytes.length);
          entries[rel] = `${link}${link ? " " : ""}sha256:${await sha256(bytes)}`;
          continue;
        }
        if (!options.whole) continue;
        count(0);
        entries[rel] = link || (info?.isDirectory ? "dir" : "other");
        if (!entry.isSymlink && info?.isDirectory) await walk(rel);
        continue;
      }
      if (!options.whole) continue;
      if (entry.isSymlink) {
        count(0);
        entries[rel] = `symlink:${await sha256(await Deno.readLink(full))}`;
      } else if (entry.isDirectory) {
        count(0);
        entries[rel] = "dir";
        await walk(rel);
      } else if (entry.isFile) {
        const bytes = await readProfileFile(full, limits.bytes - budget.bytes);
        count(bytes.length);
        entries[rel] = `sha256:${await sha256(bytes)}`;
      } else {
        count(0);
        entries[rel] = "other";
      }
    }
  };
  await walk("");
  if (!options.whole) return { path, realPath, texts };
  return { path, realPath, texts, entries, digest: await entriesDigest(entries) };
}

/** A profile file's bytes, the bounded way (./bounded_read.ts), within `cap`. */
function readProfileFile(path: string, cap: number): Promise<Uint8Array> {
  return readBounded(path, {
    maxBytes: cap,
    label: "profile file",
    hint: "a profile file is small JSON: remove or replace this file (or the symlink to it)",
  });
}

/** `sha256:HEX` over a directory's entries: each name and fingerprint, sorted by name. */
async function entriesDigest(entries: Record<string, string>): Promise<string> {
  const lines = Object.keys(entries).sort().map((name) =>
    `${JSON.stringify(name)} ${entries[name]}\n`
  );
  return `sha256:${await sha256(lines.join(""))}`;
}

/** UTF-8 text of a file's bytes; a leading byte order mark is dropped (editors on Windows write one). */
function decode(bytes: Uint8Array): string {
  return new TextDecoder("utf-8").decode(bytes);
}
