/**
 * Reads the configs `jn profile import` takes servers from: each file once,
 * the bounded way (../bounded_read.ts: a regular file only, its target judged
 * through a symlink, at most {@linkcode MAX_CONFIG_BYTES}), parsed as JSONC.
 * These files are not jn's: a repository's `.mcp.json` may be a FIFO, a
 * symlink to `/dev/zero` or a nesting bomb, and each is a one-line
 * ConfigError (exit 3) naming the file.
 *
 * An editor's file that does not exist is skipped (most users have few
 * editors); a FILE the user named must exist, and holds `mcpServers` or
 * VS Code's `servers`.
 *
 * @module
 */

import { ConfigError } from "../../errors.ts";
import { MAX_CONFIG_BYTES, readBoundedText } from "../bounded_read.ts";
import { parseJsonc } from "../load.ts";
import { guessServersKey } from "./import.ts";
import type { ConfigLocation } from "./import_paths.ts";

/** Each config's parsed value, by path (a missing editor file is absent). */
export async function readImportConfigs(
  locations: ConfigLocation[],
): Promise<Map<string, unknown>> {
  const configs = new Map<string, unknown>();
  const single = locations.length === 1 && locations[0].label === "file";
  const paths = new Set(
    locations.flatMap((l) => [l.path, ...(l.disabledIn ? [l.disabledIn.path] : [])]),
  );
  for (const path of paths) {
    let text: string;
    try {
      text = await readBoundedText(path, {
        maxBytes: MAX_CONFIG_BYTES,
        hint: "an MCP config is small JSON: replace this entry (or the symlink to it) with one",
      });
    } catch (error) {
      if (error instanceof ConfigError) throw error;
      if (single || !(error instanceof Deno.errors.NotFound)) {
        throw new ConfigError(`Cannot read ${path}: ${(error as Error).message}`, { path });
      }
      continue;
    }
    configs.set(path, parseJsonc(text, path).value);
  }
  if (single) {
    const location = locations[0];
    const key = guessServersKey(configs.get(location.path));
    if (key === undefined) {
      throw new ConfigError(`No "mcpServers" or "servers" in ${location.path}`, {
        path: location.path,
        hint: `expected {"mcpServers": {"NAME": {"command": …}}} (or VS Code's "servers")`,
      });
    }
    location.key = key;
  }
  return configs;
}
