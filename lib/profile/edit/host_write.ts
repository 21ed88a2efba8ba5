/**
 * A host's config file as `jn host add|remove` edits it: a file jn did not
 * write, often holding the user's other servers and their API keys.
 *
 * Guarantees:
 * - It is read the bounded way (../bounded_read.ts: a regular file, its
 *   target judged through a symlink, at most 64 MiB) and parsed as JSONC; a
 *   file that does not parse, or whose top level is not an object, is a
 *   ConfigError and is not touched (jn edits nothing it cannot read).
 * - It is written only inside the place it is expected: the file's real
 *   path (symlinks resolved), or for a new file its nearest existing
 *   directory's, must be inside one of `roots` (the user's home and config
 *   directory for a user config, the project for a project's). A symlink
 *   inside is written through (the link stays a link); one pointing
 *   elsewhere, or to nothing, is refused.
 * - Before a change, the file is copied to `FILE.jn-backup-YYYYMMDDTHHMMSSZ`
 *   beside it, mode 0600 (it may hold secrets), never over an existing file.
 * - The new text replaces the file at once (a temporary file in its
 *   directory, renamed over it), with the file's mode; a new file is 0600
 *   and its new directories 0700.
 *
 * @module
 */

import { basename, dirname, join, resolve, sep } from "node:path";
import { ConfigError } from "../../errors.ts";
import { MAX_CONFIG_BYTES, readBoundedText } from "../bounded_read.ts";
import { isPlainObject } from "../fields.ts";
import { parseJsonc } from "../load.ts";

/** A host's config file, read. */
export interface HostFile {
  /** The path as the host names it. */
  path: string;
  /** Where its bytes are (symlinks resolved; the path itself for a new file). */
  target: string;
  /** Its text; undefined when the file does not exist yet. */
  text?: string;
  /** Its permission bits. */
  mode?: number;
}

/** Reads a host's config file for an edit (see the module's guarantees). */
export async function readHostFile(path: string, roots: readonly string[]): Promise<HostFile> {
  const target = await placeOf(path, roots);
  let text: string;
  try {
    text = await readBoundedText(target, {
      maxBytes: MAX_CONFIG_BYTES,
      hint: "an MCP config is small JSON: replace it (or the symlink to it) with one",
    });
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return { path, target };
    throw error;
  }
  if (text.trim() !== "") {
    const parsed = parseJsonc(text, path).value;
    if (!isPlainObject(parsed)) {
      throw new ConfigError(`Cannot edit ${path}: its top level is not a JSON object`, {
        path,
        hint: "fix the file by hand (a host's config is {…}), then run this again",
      });
    }
  }
  const mode = (await Deno.stat(target)).mode ?? undefined;
  return { path, target, text, ...(mode === undefined ? {} : { mode: mode & 0o777 }) };
}

/** Replaces a host's config file with `text` (backing it up first): the backup's path. */
export async function writeHostFile(
  file: HostFile,
  text: string,
  now: Date = new Date(),
): Promise<string | undefined> {
  let backup: string | undefined;
  if (file.text !== undefined) backup = await backUp(file.target, file.text, now);
  else await Deno.mkdir(dirname(file.target), { recursive: true, mode: 0o700 });
  const mode = file.mode ?? 0o600;
  const temp = join(dirname(file.target), `.${basename(file.target)}.jn-${crypto.randomUUID()}`);
  try {
    await Deno.writeTextFile(temp, text, { createNew: true, mode });
    await Deno.chmod(temp, mode); // the umask narrowed it at creation
    await Deno.rename(temp, file.target);
  } catch (error) {
    await Deno.remove(temp).catch(() => {});
    throw error;
  }
  return backup;
}

async function backUp(target: string, text: string, now: Date): Promise<string> {
  const stamp = now.toISOString().replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z");
  for (let n = 1;; n++) {
    const path = `${target}.jn-backup-${stamp}${n === 1 ? "" : `-${n}`}`;
    try {
      await Deno.writeTextFile(path, text, { createNew: true, mode: 0o600 });
      await Deno.chmod(path, 0o600);
      return path;
    } catch (error) {
      if (!(error instanceof Deno.errors.AlreadyExists) || n >= 100) throw error;
    }
  }
}

/** Where `path`'s bytes are, once judged to be inside `roots` (else a ConfigError). */
async function placeOf(path: string, roots: readonly string[]): Promise<string> {
  const refuse = (why: string) =>
    new ConfigError(`Refusing to write ${path}: ${why}`, {
      path,
      hint: "jn writes a host's config only where the host keeps it: replace the symlink " +
        "with the file (or edit the file by hand)",
    });
  let link = false;
  try {
    link = (await Deno.lstat(path)).isSymlink;
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  let real: string;
  if (link) {
    try {
      real = await Deno.realPath(path);
    } catch {
      throw refuse("it is a symlink to nothing");
    }
  } else {
    // The file or, for a new one, its nearest existing directory.
    let existing = resolve(path);
    let rest: string[] = [];
    for (;;) {
      try {
        real = join(await Deno.realPath(existing), ...rest);
        break;
      } catch (error) {
        if (!(error instanceof Deno.errors.NotFound)) throw error;
        const parent = dirname(existing);
        if (parent === existing) throw error;
        rest = [basename(existing), ...rest];
        existing = parent;
      }
    }
  }
  const places = await Promise.all(roots.map((root) => Deno.realPath(root).catch(() => root)));
  const inside = places.some((root) => real === root || real.startsWith(`${root}${sep}`));
  if (!inside) {
    throw refuse(
      `it resolves to ${real}, outside ${roots.length === 1 ? roots[0] : roots.join(" and ")}`,
    );
  }
  return link ? real : path;
}
