/**
 * Writes a verified skill into a directory the user named, as
 * `DIR/<name>/<path>`, without following a symlink and without leaving DIR:
 *
 * - DIR itself is the user's (trusted) choice: it is created if missing and
 *   resolved once (a symlink the user made to their skills folder is fine);
 * - `<name>` and every path segment were checked by skill_entry.ts (plain
 *   names: no `..`, separator, NUL or control character);
 * - the files are written into a fresh directory jn creates inside DIR
 *   (`mkdtemp`), with `O_CREAT|O_EXCL` for each file and `mkdir` for each
 *   directory, so no path jn writes through existed before it wrote it;
 * - that directory then takes the place of `DIR/<name>` with one rename. An
 *   existing `DIR/<name>` that is a symlink, or not a directory, is refused;
 *   an existing directory is replaced only when asked (`replace`), and its
 *   old contents are removed without following the links inside them.
 *
 * Files are written mode 0644: nothing a server sends becomes executable.
 * On failure nothing is left behind but what was there before.
 *
 * @module
 */

import { UsageError, WriteError } from "../errors.ts";
import { environmentErrorCode, osErrorReason } from "../errors.ts";

/** One file to write: its path inside the skill's directory, and its bytes. */
export interface SkillFileData {
  /** Plain segments (checked by skill_entry.ts). */
  path: string[];
  /** Its verified bytes. */
  bytes: Uint8Array;
}

/** Where a skill was written: its directory, and each file's absolute path, in order. */
export interface WrittenSkill {
  /** `DIR/<name>`, absolute. */
  dir: string;
  /** Each file's absolute path, in the order given. */
  paths: string[];
}

/** Writes `files` as `outDir/name/…` (see the module doc); `replace` replaces an existing one. */
export async function writeSkill(
  outDir: string,
  name: string,
  files: SkillFileData[],
  options: { replace?: boolean } = {},
): Promise<WrittenSkill> {
  const base = await baseDir(outDir);
  const dir = `${base}/${name}`;
  const existing = await lstat(dir);
  if (existing?.isSymlink) {
    throw new UsageError(`Refusing to write the skill through a symlink: ${dir}`, {
      hint: "remove the link, or choose another --out directory",
    });
  }
  if (existing && !existing.isDirectory) {
    throw new UsageError(`Cannot write the skill: ${dir} exists and is not a directory`, {
      hint: "remove it, or choose another --out directory",
    });
  }
  if (existing && !options.replace) {
    throw new UsageError(`The skill's directory already exists: ${dir}`, {
      hint: "add --force to replace it, or choose another --out directory",
    });
  }
  const staging = await guard(dir, () => Deno.makeTempDir({ dir: base, prefix: `.jn-${name}-` }));
  try {
    const made = new Set<string>();
    for (const file of files) {
      let parent = staging;
      for (const segment of file.path.slice(0, -1)) {
        parent = `${parent}/${segment}`;
        if (made.has(parent)) continue;
        await guard(dir, () => Deno.mkdir(parent, { mode: 0o755 }));
        made.add(parent);
      }
      const target = `${parent}/${file.path[file.path.length - 1]}`;
      await guard(dir, () => Deno.writeFile(target, file.bytes, { createNew: true, mode: 0o644 }));
    }
    if (existing) {
      const old = `${staging}.old`;
      await guard(dir, () => Deno.rename(dir, old));
      try {
        await guard(dir, () => Deno.rename(staging, dir));
      } catch (error) {
        await Deno.rename(old, dir).catch(() => {});
        throw error;
      }
      await Deno.remove(old, { recursive: true }).catch(() => {});
    } else {
      await guard(dir, () => Deno.rename(staging, dir));
    }
  } catch (error) {
    await Deno.remove(staging, { recursive: true }).catch(() => {});
    throw error;
  }
  return { dir, paths: files.map((file) => [dir, ...file.path].join("/")) };
}

/** DIR, created when missing, resolved to its real path; it must be a directory. */
async function baseDir(outDir: string): Promise<string> {
  await guard(outDir, () => Deno.mkdir(outDir, { recursive: true }));
  const real = await guard(outDir, () => Deno.realPath(outDir));
  const info = await Deno.stat(real);
  if (!info.isDirectory) {
    throw new UsageError(`Cannot write the skill into ${outDir}: not a directory`, {
      hint: "give --out a directory",
    });
  }
  return real;
}

async function lstat(path: string): Promise<Deno.FileInfo | undefined> {
  try {
    return await Deno.lstat(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
}

/** Runs a file operation; an OS refusal (full disk, permission, …) becomes a WriteError. */
async function guard<T>(path: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    const code = environmentErrorCode(error);
    if (code === undefined && !(error instanceof Deno.errors.AlreadyExists)) throw error;
    throw new WriteError(`Cannot write the skill to ${path}: ${osErrorReason(error)}`, {
      path,
      code: code ?? "EEXIST",
      target: "output",
      cause: error,
    });
  }
}
