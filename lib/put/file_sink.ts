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
 *   0666 minus the umask. A target that is a symlink is replaced through it.
 *
 * @module
 */

import { basename, dirname, join } from "node:path";
import { UsageError } from "../errors.ts";
import type { NdjsonLine } from "./lines.ts";
import type { FileFormat } from "./target_kind.ts";

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
  const target = await resolveTarget(path);
  const { file, tempPath } = await createTemp(target, path);
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
      await writeAll(file, encoder.encode(text));
    }
    if (options.signal?.aborted) return { kind: "interrupted" };
    if (json) await writeAll(file, encoder.encode(records === 0 ? "[]\n" : "\n]\n"));
    await file.sync();
    file.close();
    await keepMode(target, tempPath);
    await Deno.rename(tempPath, target);
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

/** The path to replace: the file a symlink points to, or the path itself. */
async function resolveTarget(path: string): Promise<string> {
  try {
    return await Deno.realPath(path);
  } catch {
    return path;
  }
}

async function createTemp(target: string, given: string): Promise<
  { file: Deno.FsFile; tempPath: string }
> {
  const dir = dirname(target);
  for (let attempt = 0;; attempt++) {
    const suffix = crypto.getRandomValues(new Uint32Array(1))[0].toString(36);
    const tempPath = join(dir, `.${basename(target)}.jn-${suffix}.tmp`);
    try {
      const file = await Deno.open(tempPath, { write: true, createNew: true, mode: 0o666 });
      return { file, tempPath };
    } catch (error) {
      if (error instanceof Deno.errors.AlreadyExists && attempt < 8) continue;
      const why = error instanceof Deno.errors.NotFound
        ? `the directory "${dir}" does not exist`
        : error instanceof Error
        ? error.message
        : String(error);
      throw new UsageError(`Cannot write "${given}": ${why}`, { cause: error });
    }
  }
}

async function keepMode(target: string, tempPath: string): Promise<void> {
  try {
    const mode = (await Deno.stat(target)).mode;
    if (mode !== null) await Deno.chmod(tempPath, mode & 0o7777);
  } catch { /* a new file keeps the default mode */ }
}

async function writeAll(file: Deno.FsFile, bytes: Uint8Array): Promise<void> {
  let offset = 0;
  while (offset < bytes.length) offset += await file.write(bytes.subarray(offset));
}
