/**
 * `mcp+npx://PKG` → `npx --prefix /dev/null -y PKG ARGS…`. `-y` answers
 * npx's install prompt, which would otherwise wait on a stdin that belongs to
 * the MCP protocol; `--prefix /dev/null` keeps npm from reading the working
 * directory's `.npmrc` and from preferring a package installed there
 * (isolation.ts). PKG is any npm spec: `pkg`, `pkg@1`, `@scope/pkg@latest`.
 *
 * @module
 */

import type { NakedSource } from "../uri/source.ts";
import { npxIsolation } from "./isolation.ts";
import type { StdioLaunch } from "./spec.ts";

/** The argv of an npx server; ARGS are the source's `command=` values. */
export function buildNpxLaunch(source: NakedSource): StdioLaunch {
  return {
    transport: "stdio",
    command: "npx",
    args: [...npxIsolation(), "-y", source.location, ...source.command],
    env: {},
    label: `npx ${source.location}`,
  };
}
