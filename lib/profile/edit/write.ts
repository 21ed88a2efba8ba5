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

import { basename, dirname, join } from "node:path";
import { UsageError } from "../../errors.ts";
import type { MetaDef, ToolDef } from "../types.ts";

/** A profile to write: `_meta.json` and tool files by file name (without `.json`). */
export interface ProfileFiles {
  meta: MetaDef;
  tools: Map<string, ToolDef>;
}

/** Options of {@linkcode writeProfileDir}. */
export interface WriteOptions {
  /** Replace an existing profile directory. */
  force?: boolean;
  /** How the profile is named in messages (`@name`). */
  label: string;
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
