/**
 * lib/launch: a naked URI's launcher → the argv or URL of its server, one file
 * per launcher.
 *
 * Maps a naked source to how its server is reached, by launcher. No shell is
 * ever involved: every adapter returns an argv (or a URL). The child's
 * environment starts empty here; the session adds safe defaults.
 *
 * @module
 */

import type { NakedSource } from "../uri/source.ts";
import { buildDenoLaunch } from "./deno.ts";
import { buildHttpLaunch } from "./http.ts";
import { buildNodeLaunch } from "./node.ts";
import { buildNpxLaunch } from "./npx.ts";
import type { LaunchOptions } from "./options.ts";
import { buildPythonLaunch } from "./python.ts";
import type { LaunchSpec } from "./spec.ts";
import { buildUvxLaunch } from "./uvx.ts";

export type { LaunchOptions } from "./options.ts";

/**
 * The launch of a naked source.
 *
 * @example
 * ```ts
 * buildLaunch(parseSource("mcp+npx://@scope/pkg@1?command=--stdio") as NakedSource, { cwd: "/w" });
 * // { transport: "stdio", command: "npx", args: ["--prefix", "/dev/null", "-y", "@scope/pkg@1", "--stdio"],
 * //   env: {}, label: "npx @scope/pkg@1" }
 * ```
 */
export function buildLaunch(source: NakedSource, options: LaunchOptions): LaunchSpec {
  switch (source.launcher) {
    case "uvx":
      return buildUvxLaunch(source);
    case "npx":
      return buildNpxLaunch(source);
    case "python":
      return buildPythonLaunch(source, options);
    case "node":
      return buildNodeLaunch(source, options);
    case "deno":
      return buildDenoLaunch(source, options);
    case "http":
    case "https":
      return buildHttpLaunch(source);
    default: {
      const never: never = source.launcher;
      throw new Error(`Unhandled launcher ${never}`);
    }
  }
}
