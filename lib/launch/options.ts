/**
 * What every launcher adapter is given besides the source, and the one way
 * script paths become absolute. Pure: paths are resolved against the `cwd`
 * the caller passes, never against the process's.
 *
 * @module
 */

import { isAbsolute, resolve } from "node:path";

/** Options of {@linkcode buildLaunch} and the adapters. */
export interface LaunchOptions {
  /** The caller's working directory (absolute); relative script paths resolve against it. */
  cwd: string;
  /** The `deno` executable for `mcp+deno://` servers; `"deno"` (found on PATH) by default. */
  denoPath?: string;
  /** Extra Deno permission flags for `mcp+deno://` servers, e.g. `--allow-net=api.example.com`. */
  denoPermissions?: string[];
}

/** `path` made absolute against `cwd` and normalised (`..` and `.` removed). */
export function absolutePath(path: string, options: { cwd: string }): string {
  if (!isAbsolute(options.cwd)) {
    throw new TypeError(`The launch cwd must be absolute, got "${options.cwd}"`);
  }
  return resolve(options.cwd, path);
}
