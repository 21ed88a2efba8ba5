/**
 * `mcp+node://PATH` → `node /abs/PATH ARGS…`, the path made absolute against
 * the caller's cwd.
 *
 * @module
 */

import type { NakedSource } from "../uri/source.ts";
import { absolutePath } from "./options.ts";
import type { StdioLaunch } from "./spec.ts";

/** The argv of a Node.js script server; ARGS are the source's `command=` values. */
export function buildNodeLaunch(source: NakedSource, options: { cwd: string }): StdioLaunch {
  return {
    transport: "stdio",
    command: "node",
    args: [absolutePath(source.location, options), ...source.command],
    env: {},
    label: `node ${source.location}`,
  };
}
