/**
 * `mcp+python://PATH` → `python3 /abs/PATH ARGS…`, the path made absolute
 * against the caller's cwd so the argv means the same from any directory.
 *
 * @module
 */

import type { NakedSource } from "../uri/source.ts";
import { absolutePath } from "./options.ts";
import type { StdioLaunch } from "./spec.ts";

/** The argv of a Python script server; ARGS are the source's `command=` values. */
export function buildPythonLaunch(source: NakedSource, options: { cwd: string }): StdioLaunch {
  return {
    transport: "stdio",
    command: "python3",
    args: [absolutePath(source.location, options), ...source.command],
    env: {},
    label: `python ${source.location}`,
  };
}
