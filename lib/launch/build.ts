/**
 * The launch of a naked source: its launcher's descriptor (registry.ts)
 * builds the argv or URL, given the platform's path functions
 * (descriptors import nothing of Node's); script paths resolve against the
 * `cwd` the caller passes, never against the process's. No shell is ever involved: every
 * launcher returns an argv (or a URL). The child's environment starts empty
 * here, but for a launcher's isolation (`UV_NO_CONFIG`); the session adds
 * the safe defaults.
 *
 * @module
 */

import { dirname, isAbsolute, resolve } from "node:path";
import { UsageError } from "../errors.ts";
import type { LaunchOptions, LaunchTarget } from "./descriptor.ts";
import { launcherOf, launcherSchemes } from "./registry.ts";
import type { LaunchSpec } from "./spec.ts";

export type { LaunchOptions } from "./descriptor.ts";

/**
 * The launch of a naked source (a `NakedSource`, or its launcher, location
 * and `command=` values).
 *
 * @example
 * ```ts
 * buildLaunch(parseSource("mcp+npx://@scope/pkg@1?command=--stdio") as NakedSource, { cwd: "/w" });
 * // { transport: "stdio", command: "npx", args: ["--prefix", "/dev/null", "-y", "@scope/pkg@1", "--stdio"],
 * //   env: {}, label: "npx @scope/pkg@1" }
 * ```
 */
export function buildLaunch(target: LaunchTarget, options: LaunchOptions): LaunchSpec {
  const launcher = launcherOf(target.launcher);
  if (launcher === undefined) {
    throw new UsageError(`Unknown launcher "${target.launcher}"`, {
      hint: `launchers: ${launcherSchemes().join(", ")}`,
    });
  }
  return launcher.build(target, {
    ...options,
    absolute: (path) => absolutePath(path, options),
    dirname,
    os: Deno.build.os,
  });
}

/** `path` made absolute against `cwd` and normalised (`..` and `.` removed). */
function absolutePath(path: string, options: { cwd: string }): string {
  if (!isAbsolute(options.cwd)) {
    throw new TypeError(`The launch cwd must be absolute, got "${options.cwd}"`);
  }
  return resolve(options.cwd, path);
}
