/**
 * The one way jn reads a small file it did not write — a profile file, a
 * repository's `.mcp.json`, an editor's config: only a regular file, and
 * never more than a size bound.
 *
 * Guarantees: a symlink is followed and its target judged like any file; a
 * FIFO, socket or device (`/dev/zero`, a symlink to one) is refused before it
 * is opened (opening a FIFO blocks until someone writes to it); the size is
 * checked before the read, checked again on the open file (it may have been
 * swapped in between), and the read stops one chunk past the bound (a `/proc`
 * file says size 0 and never ends), so a huge file is a one-line
 * ConfigError (exit 3), not an exhausted memory. A missing file is Deno's
 * `NotFound`, for the caller to decide about.
 *
 * @module
 */

import { ConfigError } from "../errors.ts";
import { concatBytes } from "../text/bytes.ts";

/** The largest editor config jn reads (`~/.claude.json` keeps history and grows to megabytes). */
export const MAX_CONFIG_BYTES = 64 * 1024 * 1024;

/** How a refusal is worded. */
export interface BoundedReadOptions {
  /** The most bytes read. */
  maxBytes: number;
  /** What the file is, before its path in messages (`profile file`); default none. */
  label?: string;
  /** The hint of a refusal. */
  hint?: string;
}

/**
 * A regular file's bytes, at most `maxBytes` of them; a ConfigError for
 * anything else (see the module doc).
 *
 * @example
 * ```ts ignore
 * const bytes = await readBounded("/repo/.mcp.json", { maxBytes: MAX_CONFIG_BYTES });
 * ```
 */
export async function readBounded(path: string, options: BoundedReadOptions): Promise<Uint8Array> {
  const cap = options.maxBytes;
  const what = options.label ? `${options.label} ${path}` : path;
  const refuse = (why: string) =>
    new ConfigError(`Cannot read ${what}: ${why}`, {
      path,
      hint: options.hint ?? "replace it (or the symlink to it) with a small regular file",
    });
  const notFile = () => refuse("it is not a regular file");
  const tooLarge = () => refuse(`it is too large (over ${formatBytes(cap)})`);
  // Judged before it is opened: opening a FIFO would wait for a writer.
  const first = await Deno.stat(path);
  if (!first.isFile) throw notFile();
  if (first.size > cap) throw tooLarge();
  using file = await Deno.open(path, { read: true });
  const info = await file.stat();
  if (!info.isFile) throw notFile();
  if (info.size > cap) throw tooLarge();
  const chunks: Uint8Array[] = [];
  let total = 0;
  const buffer = new Uint8Array(64 * 1024);
  for (let n = await file.read(buffer); n !== null; n = await file.read(buffer)) {
    total += n;
    if (total > cap) throw tooLarge();
    chunks.push(buffer.slice(0, n));
  }
  return concatBytes(chunks);
}

/** {@linkcode readBounded}, decoded as UTF-8 (invalid bytes become U+FFFD). */
export async function readBoundedText(path: string, options: BoundedReadOptions): Promise<string> {
  return new TextDecoder("utf-8").decode(await readBounded(path, options));
}

/** `1024 bytes`, `64 MiB`: a bound as a message shows it. */
function formatBytes(bytes: number): string {
  const mib = 1024 * 1024;
  return bytes >= mib && bytes % mib === 0 ? `${bytes / mib} MiB` : `${bytes} bytes`;
}
