/**
 * `jn put FILE`: writes NDJSON records to a file, atomically.
 *
 * Guarantees:
 * - streaming: records are written as they are read, one write per input
 *   chunk, so memory does not grow with the input (a `.json` array too);
 * - lossless: each record is written exactly as it was read (validated with
 *   `JSON.parse`, surrounding whitespace trimmed), so big integers and number
 *   spellings survive; any JSON value is a record, not only objects;
 * - `.json` is one array, one record per line (`[\n…,\n…\n]\n`, `[]\n` when
 *   there is none); `.ndjson` is one record per line;
 * - atomic: the records go to a temporary file in the target's directory,
 *   renamed over the target only when every line was valid and the input
 *   ended; a line that is not JSON, an abort, or an error removes the
 *   temporary file and leaves an existing target untouched;
 * - an existing target keeps its permission bits; a new file gets the usual
 *   0666 minus the umask;
 * - no symlink is followed: a target that is a symlink is refused before
 *   anything is read (someone else may have planted it, in a shared directory,
 *   to make jn overwrite the file it points to); the temporary file is
 *   created exclusively (`O_EXCL`, which fails on any existing name, dangling
 *   links included), and the rename replaces a link planted at the target in
 *   the meantime instead of writing through it;
 * - a target that cannot be written (name too long, missing directory,
 *   permission, read-only file system, full disk) is a `UsageError` or
 *   `WriteError` (exit 2) naming it, and nothing is left behind.
 *
 * @module
 */

import { basename, dirname, join } from "node:path";
import { UsageError } from "../errors.ts";
import type { NdjsonLine } from "../ndjson/read.ts";
import { refusedWrite, writeAll } from "../ndjson/write_all.ts";
import type { FileFormat } from "./put_target.ts";

/** Options of {@linkcode writeRecordsFile}. */
export interface FileSinkOptions {
  format: FileFormat;
  /** Aborting it stops the write; the target is left untouched. */
  signal?: AbortSignal;
}

/** How a file write ended. */
export type FileSinkResult =
  | { kind: "written"; path: string; records: number }
  | { kind: "invalid"; line: number; message: string }
  | { kind: "interrupted" };

/** Writes every line of `batches` to `path`; see the module doc for the guarantees. */
export async function writeRecordsFile(
  batches: AsyncIterable<readonly NdjsonLine[]>,
  path: string,
  options: FileSinkOptions,
): Promise<FileSinkResult> {
  const existing = await checkTarget(path);
  const { file, tempPath } = await createTemp(path);
  const encoder = new TextEncoder();
  let committed = false;
  let records = 0;
  try {
    const json = options.format === "json";
    for await (const batch of batches) {
      if (options.signal?.aborted) break;
      let text = "";
      for (const line of batch) {
        const record = line.text.trim();
        try {
          JSON.parse(record);
        } catch (error) {
          const detail = error instanceof Error ? error.message : String(error);
          return { kind: "invalid", line: line.number, message: detail };
        }
        text += json ? (records === 0 ? "[\n" : ",\n") + record : record + "\n";
        records++;
      }
      await writeAll(file, encoder.encode(text), { path });
    }
    if (options.signal?.aborted) return { kind: "interrupted" };
    if (json) await writeAll(file, encoder.encode(records === 0 ? "[]\n" : "\n]\n"), { path });
    await fileOp(path, async () => {
      await file.sync();
      file.close();
      if (existing?.mode) await Deno.chmod(tempPath, existing.mode & 0o7777);
      await Deno.rename(tempPath, path);
    });
    committed = true;
    return { kind: "written", path, records };
  } finally {
    if (!committed) {
      try {
        file.close();
      } catch { /* already closed */ }
      await Deno.remove(tempPath).catch(() => {});
    }
  }
}

/**
 * What is at the target now (without following a symlink): nothing, or a
 * regular file whose mode to keep. A symlink or a directory is refused.
 */
async function checkTarget(path: string): Promise<Deno.FileInfo | undefined> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.lstat(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw refusedWrite(error, path);
  }
  if (info.isSymlink) {
    const to = await Deno.readLink(path).catch(() => "?");
    throw new UsageError(`Cannot write "${path}": it is a symbolic link (to "${to}")`, {
      hint: "jn put does not write through links: name the file itself, or remove the link",
    });
  }
  if (info.isDirectory) {
    throw new UsageError(`Cannot write "${path}": it is a directory`, {
      hint: "name a file: jn put DIR/records.json",
    });
  }
  return info;
}

async function createTemp(path: string): Promise<{ file: Deno.FsFile; tempPath: string }> {
  const dir = dirname(path);
  // A name near the file system's limit (255 bytes) must not fail only for the temporary file.
  const stem = basename(path).slice(0, 64);
  for (let attempt = 0;; attempt++) {
    const suffix = crypto.getRandomValues(new Uint32Array(1))[0].toString(36);
    const tempPath = join(dir, `.${stem}.jn-${suffix}.tmp`);
    try {
      const file = await Deno.open(tempPath, { write: true, createNew: true, mode: 0o666 });
      return { file, tempPath };
    } catch (error) {
      if (error instanceof Deno.errors.AlreadyExists && attempt < 8) continue;
      if (error instanceof Deno.errors.NotFound) {
        throw new UsageError(`Cannot write "${path}": the directory "${dir}" does not exist`, {
          cause: error,
          hint: `create it first (mkdir -p ${dir}), or write elsewhere`,
        });
      }
      throw refusedWrite(error, path);
    }
  }
}

/** Runs a file operation, turning an error of the environment into a `WriteError`. */
async function fileOp(path: string, op: () => Promise<void>): Promise<void> {
  try {
    await op();
  } catch (error) {
    throw refusedWrite(error, path);
  }
}
