/**
 * `mcp+uvx://PKG[/CMD]` → `uvx --from PKG CMD ARGS…`, or `uvx PKG ARGS…`
 * when no command is named (uvx then runs the package's same-named command).
 * A PyPI name never contains `/`, so the first `/` separates PKG from CMD.
 * uv gets `UV_NO_CONFIG=1`: no configuration file of the working directory
 * (or any other) shapes the run (isolation.ts).
 *
 * @module
 */

import type { NakedSource } from "../uri/source.ts";
import { isolateLauncher } from "./isolation.ts";
import type { StdioLaunch } from "./spec.ts";

/** The argv of a uvx server; ARGS are the source's `command=` values. */
export function buildUvxLaunch(source: NakedSource): StdioLaunch {
  const slash = source.location.indexOf("/");
  const args = slash === -1 ? [source.location, ...source.command] : [
    "--from",
    source.location.slice(0, slash),
    source.location.slice(slash + 1),
    ...source.command,
  ];
  return isolateLauncher({
    transport: "stdio",
    command: "uvx",
    args,
    env: {},
    label: `uvx ${source.location}`,
  });
}
