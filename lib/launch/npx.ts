/**
 * `mcp+npx://PKG` → `npx -y PKG ARGS…`. `-y` answers npx's install prompt,
 * which would otherwise wait on a stdin that belongs to the MCP protocol.
 * PKG is any npm spec: `pkg`, `pkg@1`, `@scope/pkg@latest`.
 *
 * @module
 */

import type { NakedSource } from "../uri/source.ts";
import type { StdioLaunch } from "./spec.ts";

/** The argv of an npx server; ARGS are the source's `command=` values. */
export function buildNpxLaunch(source: NakedSource): StdioLaunch {
  return {
    transport: "stdio",
    command: "npx",
    args: ["-y", source.location, ...source.command],
    env: {},
    label: `npx ${source.location}`,
  };
}
