/**
 * Launchers that never take their configuration from the working directory.
 * A server runs in the directory jn is started in, often a repository the
 * user did not write; npx and uvx would otherwise read that directory:
 *
 * - npx (npm exec) reads the project's `.npmrc` (`node-options=--require
 *   ./evil.cjs` runs the repository's code) and prefers a package installed
 *   in the project's `node_modules` to the one asked for. `--prefix
 *   /dev/null` makes npm's project an empty one that nothing can be put in:
 *   no project `.npmrc`, no local package; the server still runs in the
 *   working directory. The user's `~/.npmrc` is still read; npm's global
 *   config (`$PREFIX/etc/npmrc`) is not, as npm ties it to the prefix.
 * - uvx (`uv tool run`) reads no project configuration and no project
 *   virtualenv by uv's design; `UV_NO_CONFIG=1` makes that independent of
 *   uv's version (user-level `uv.toml` is then not read either: give uv's
 *   settings as `UV_*` variables through `env` or `--env-passthrough`).
 *
 * A launch that already says otherwise (its own `--prefix`, a declared
 * `UV_NO_CONFIG`) is left as it is: a profile's argv and env are the user's
 * (a project's, after `jn profile trust`). Windows has no `/dev/null`: there
 * the npx argv is unchanged.
 *
 * @module
 */

import { basename } from "node:path";
import type { StdioLaunch } from "./spec.ts";

/** npm's project prefix for npx: a path that exists everywhere and can hold nothing. */
export const NPX_PREFIX = "/dev/null";

/** The launcher options that make npx ignore the working directory (none on Windows). */
export function npxIsolation(os: string = Deno.build.os): string[] {
  return os === "windows" ? [] : ["--prefix", NPX_PREFIX];
}

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
  const name = basename(launch.command).replace(/\.(exe|cmd)$/i, "");
  if (name === "npx" || (name === "npm" && ["exec", "x"].includes(launch.args[0]))) {
    const isolation = npxIsolation(os);
    if (hasOwnPrefix(launch.args.slice(name === "npm" ? 1 : 0)) || isolation.length === 0) {
      return launch;
    }
    return { ...launch, args: [...isolation, ...launch.args] };
  }
  const uvTool = name === "uv" && launch.args[0] === "tool" &&
    ["run", "uvx"].includes(launch.args[1]);
  if ((name === "uvx" || uvTool) && launch.env.UV_NO_CONFIG === undefined) {
    return { ...launch, env: { ...launch.env, UV_NO_CONFIG: "1" } };
  }
  return launch;
}

/** npm options that take the next argument as their value. */
const VALUED = ["-p", "--package", "--prefix", "-c", "--call", "--cache", "--registry", "-w"];

/** Whether npx's own options (before the package) set `--prefix`; the server's may not count. */
function hasOwnPrefix(args: readonly string[]): boolean {
  for (let index = 0; index < args.length && args[index].startsWith("-"); index++) {
    const arg = args[index];
    if (arg === "--") return false;
    if (arg === "--prefix" || arg.startsWith("--prefix=")) return true;
    if (VALUED.includes(arg)) index++;
  }
  return false;
}
