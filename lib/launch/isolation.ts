/**
 * Launchers never take their configuration from the working directory. A
 * server runs in the directory jn is started in, often a repository the user
 * did not write; npx and uvx would otherwise read that directory. Each
 * launcher says how it is kept away from it (its descriptor's `isolate`:
 * npx.ts, uvx.ts); this applies every one of them to a launch, whether it
 * comes from a naked URI or a profile's `"command"`.
 *
 * A launch that already says otherwise (its own `--prefix`, a declared
 * `UV_NO_CONFIG`) is left as it is: a profile's argv and env are the user's
 * (a project's, after `jn profile trust`).
 *
 * @module
 */

import { LAUNCHERS } from "./registry.ts";
import type { StdioLaunch } from "./spec.ts";

/**
 * `launch` with its launcher kept away from the working directory's
 * configuration (see the module doc); other launches come back unchanged.
 *
 * @example
 * ```ts
 * isolateLauncher({ transport: "stdio", command: "npx", args: ["-y", "pkg"], env: {}, label: "npx pkg" });
 * // { …, args: ["--prefix", "/dev/null", "-y", "pkg"] }
 * ```
 */
export function isolateLauncher(launch: StdioLaunch, os: string = Deno.build.os): StdioLaunch {
  let isolated = launch;
  for (const launcher of LAUNCHERS) isolated = launcher.isolate?.(isolated, os) ?? isolated;
  return isolated;
}
