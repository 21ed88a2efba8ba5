/**
 * Binary content written to files instead of printed (`cat`'s `saveDir`,
 * `--save-dir DIR`): each image or audio item (`data`), each blob of a
 * resource read or an embedded resource (`blob`) is decoded and written to
 * `DIR/sha256-<hex>.<ext>`, and its record carries `file` (that path, as
 * DIR was given) and `bytes` in the base64's place.
 *
 * Guarantees: nothing the server sends becomes a path — the name is the
 * content's SHA-256, its extension comes from an allow-list of media types
 * (anything else is `.bin`); a file is written under a fresh temporary name
 * in DIR (never through a path that existed) and renamed into place, mode
 * 0644, so a symlink planted at the final name is replaced, not followed;
 * the same content twice is one file. Base64 that does not decode is left
 * in the record as it came. A file that cannot be written is a WriteError.
 *
 * @module
 */

import { join, resolve } from "node:path";
import { WriteError } from "../errors.ts";

/** The extension of each media type jn names files after; any other is `bin`. */
const EXTENSIONS: Readonly<Record<string, string>> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/gif": "gif",
  "image/webp": "webp",
  "image/bmp": "bmp",
  "image/avif": "avif",
  "image/tiff": "tiff",
  "audio/wav": "wav",
  "audio/x-wav": "wav",
  "audio/wave": "wav",
  "audio/mpeg": "mp3",
  "audio/mp3": "mp3",
  "audio/ogg": "ogg",
  "audio/flac": "flac",
  "audio/aac": "aac",
  "audio/webm": "weba",
  "audio/mp4": "m4a",
  "application/pdf": "pdf",
  "application/zip": "zip",
  "application/gzip": "gz",
  "application/json": "json",
  "text/plain": "txt",
};

/** Where files go: `dir` as given (records show it so), resolved against `cwd`. */
export interface SaveTarget {
  /** The directory, as the caller gave it (relative or absolute): the records' `file` start so. */
  dir: string;
  /** What a relative `dir` is relative to (`OpenOptions.cwd`). */
  cwd: string;
}

/**
 * The records with their binary content written to files (see the module doc).
 *
 * @example
 * ```ts ignore
 * await saveBinaries(
 *   [{ type: "tool_result", content_type: "image", data: "iVBOR…", mimeType: "image/png" }],
 *   { dir: "shots", cwd: Deno.cwd() },
 * ); // [{ type: "tool_result", content_type: "image", file: "shots/sha256-….png", bytes: 172, … }]
 * ```
 */
export async function saveBinaries(records: unknown[], target: SaveTarget): Promise<unknown[]> {
  const out: unknown[] = [];
  let made = false;
  const save = async (base64: string, mimeType: unknown) => {
    if (!made) {
      await mkdir(resolve(target.cwd, target.dir));
      made = true;
    }
    return await writeContent(base64, mimeType, target);
  };
  for (const record of records) {
    if (!isObject(record)) {
      out.push(record);
      continue;
    }
    let next: Record<string, unknown> = record;
    const binary = record.content_type === "image" || record.content_type === "audio";
    if (binary && typeof record.data === "string") {
      const saved = await save(record.data, record.mimeType);
      if (saved) next = replaced(record, "data", saved);
    } else if (typeof record.blob === "string") {
      const saved = await save(record.blob, record.mimeType);
      if (saved) next = replaced(record, "blob", saved);
    } else if (isObject(record.resource) && typeof record.resource.blob === "string") {
      const saved = await save(record.resource.blob, record.resource.mimeType);
      if (saved) next = { ...record, resource: replaced(record.resource, "blob", saved) };
    }
    out.push(next);
  }
  return out;
}

/** The object with `field` replaced by the saved file, in its place. */
function replaced(
  object: Record<string, unknown>,
  field: string,
  saved: { file: string; bytes: number },
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(object)) {
    if (key === field) Object.assign(out, saved);
    else out[key] = value;
  }
  return out;
}

/** Decodes and writes one item; undefined when its base64 does not decode. */
async function writeContent(
  base64: string,
  mimeType: unknown,
  target: SaveTarget,
): Promise<{ file: string; bytes: number } | undefined> {
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    bytes = Uint8Array.fromBase64(base64.replace(/\s+/g, ""));
  } catch {
    return undefined;
  }
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  const hex = Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
  const name = `sha256-${hex}.${extension(mimeType)}`;
  const dir = resolve(target.cwd, target.dir);
  const temp = join(dir, `.${name}.${crypto.randomUUID()}.tmp`);
  try {
    await Deno.writeFile(temp, bytes, { createNew: true, mode: 0o644 });
    await Deno.rename(temp, join(dir, name));
  } catch (error) {
    await Deno.remove(temp).catch(() => {});
    throw cannotWrite(join(dir, name), error);
  }
  return { file: join(target.dir, name), bytes: bytes.length };
}

/** The extension of a media type (parameters ignored), from the allow-list. */
export function extension(mimeType: unknown): string {
  if (typeof mimeType !== "string") return "bin";
  return EXTENSIONS[mimeType.split(";")[0].trim().toLowerCase()] ?? "bin";
}

async function mkdir(dir: string): Promise<void> {
  try {
    await Deno.mkdir(dir, { recursive: true });
  } catch (error) {
    throw cannotWrite(dir, error);
  }
}

function cannotWrite(path: string, error: unknown): WriteError {
  const code = (error as { code?: string }).code;
  const why = error instanceof Error ? error.message.replace(/: .*$/, "") : String(error);
  return new WriteError(`Cannot write ${path}: ${why}`, {
    path,
    code,
    target: "output",
    cause: error,
  });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
