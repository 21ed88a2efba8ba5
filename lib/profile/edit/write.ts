/**
 * lib/profile/edit: writing profiles: create (stdin, live server), import from
 * editors, update keeping comments.
 *
 * Writing profiles to disk, never half-way: a new profile directory is
 * written beside its place and renamed into it (the old one, with `--force`,
 * is moved aside first and removed after); a single file is written to a
 * temporary name and renamed over the old one.
 *
 * @module
 */

import { basename, dirname, join, relative, sep } from "node:path";
import { ConfigError, UsageError } from "../../errors.ts";
import type { MetaDef, ToolDef } from "../types.ts";

/** A profile to write: `_meta.json` and tool files by file name (without `.json`). */
export interface ProfileFiles {
  /** `_meta.json`. */
  meta: MetaDef;
  /** Each tool file, by its name without `.json`. */
  tools: Map<string, ToolDef>;
}

/** Options of {@linkcode writeProfileDir}. */
export interface WriteOptions {
  /** Replace an existing profile directory. */
  force?: boolean;
  /** How the profile is named in messages (`@name`). */
  label: string;
  /**
   * The project directory, when writing to the project layer: no directory
   * from it down to the profile may be a symlink (a repository's
   * `.jn/profiles` linking to `~/.local/jn/profiles` would turn a project
   * write into a user-layer profile that launches without trust).
   */
  project?: string;
}

/** Refuses a write below `project` through a symlink (any existing component of the path). */
export async function assertNoSymlink(project: string, dir: string): Promise<void> {
  const parts = relative(project, dir).split(sep);
  if (parts[0] === ".." || parts[0] === "") {
    throw new ConfigError(`Refusing to write ${dir}: it is not inside the project ${project}`, {
      path: dir,
      hint: "run jn in the project directory",
    });
  }
  let path = project;
  for (const part of parts) {
    path = join(path, part);
    const info = await Deno.lstat(path).catch(() => undefined);
    if (info === undefined) return;
    if (info.isSymlink) {
      throw new ConfigError(
        `Refusing to write the project profile through a symlink: ${path} is a symlink`,
        {
          path,
          hint: `replace ${path} with a real directory (a repository's symlink can point anywhere)`,
        },
      );
    }
  }
}

/** Serialises a profile file: two-space JSON and a final newline. */
export function profileFileText(value: unknown): string {
  return JSON.stringify(value, null, 2) + "\n";
}

/** The file names and texts of a profile, `_meta.json` first. */
export function profileFileTexts(files: ProfileFiles): [string, string][] {
  const out: [string, string][] = [["_meta.json", profileFileText(files.meta)]];
  for (const [name, def] of files.tools) out.push([`${name}.json`, profileFileText(def)]);
  return out;
}

/** Writes a profile directory at `dir`; refuses to replace one unless `force`. */
export async function writeProfileDir(
  dir: string,
  files: ProfileFiles,
  options: WriteOptions,
): Promise<string[]> {
  if (options.project !== undefined) await assertNoSymlink(options.project, dir);
  const exists = await Deno.stat(dir).then(() => true, () => false);
  if (exists && !options.force) {
    throw new UsageError(`Profile ${options.label} already exists in ${dir}`, {
      hint: "add --force to replace it (its files are removed), or pick another name",
    });
  }
  const parent = dirname(dir);
  await Deno.mkdir(parent, { recursive: true });
  const id = crypto.randomUUID().slice(0, 8);
  const temp = join(parent, `.${basename(dir)}.new-${id}`);
  const old = join(parent, `.${basename(dir)}.old-${id}`);
  const texts = profileFileTexts(files);
  try {
    await Deno.mkdir(temp);
    for (const [name, text] of texts) await Deno.writeTextFile(join(temp, name), text);
    if (exists) await Deno.rename(dir, old);
    await Deno.rename(temp, dir);
  } catch (error) {
    await Deno.remove(temp, { recursive: true }).catch(() => {});
    if (exists) await Deno.rename(old, dir).catch(() => {});
    throw error;
  }
  if (exists) await Deno.remove(old, { recursive: true }).catch(() => {});
  return texts.map(([name]) => name);
}

/** Replaces a file's content atomically (a temporary file renamed over it). */
export async function writeFileAtomic(path: string, text: string): Promise<void> {
  await Deno.mkdir(dirname(path), { recursive: true });
  const temp = join(dirname(path), `.${basename(path)}.${crypto.randomUUID().slice(0, 8)}.tmp`);
  try {
    await Deno.writeTextFile(temp, text);
    await Deno.rename(temp, path);
  } catch (error) {
    await Deno.remove(temp).catch(() => {});
    throw error;
  }
}
