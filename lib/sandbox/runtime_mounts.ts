/**
 * What a sandboxed server's runtime needs to see of the host, worked out
 * from its argv: the script an interpreter runs (node, python, deno), the
 * package that script belongs to, and the trees its runtime resolves imports
 * from — all read-only, and never a broad directory (see host_view.ts).
 * Which programs are interpreters, and what each needs, is the launchers'
 * data (`sandbox.script` of each descriptor, lib/launch/); nothing here
 * names a launcher.
 *
 * - The script: its package directory (the nearest directory holding one of
 *   the interpreter's `packageMarkers`) when one is found below the first
 *   broad directory; else the script's own directory when that is not broad;
 *   else the script file alone.
 * - `nodeModules`: every `node_modules` directory Node's resolution walks
 *   through (`<ancestor>/node_modules` for each ancestor of the script below
 *   the first broad directory), so packages hoisted above the script resolve.
 * - `userSitePackages`: the user's site-packages
 *   (`~/.local/lib/python3.*\/site-packages`); a virtualenv is reached
 *   through its interpreter ({@linkcode installRoot}).
 * - A launcher installed in a hidden place: its runtime's installation (an
 *   nvm version directory, a virtualenv) or its `bin` directory
 *   ({@linkcode installRoot}).
 *
 * These are the paths as the runtime uses them; the planner (plan.ts) binds
 * each by its real path, and only when that is not broad.
 *
 * Pure: the host is seen through a {@linkcode HostView}.
 *
 * @module
 */

import { basename, dirname, isAbsolute, join, resolve } from "node:path";
import type { ScriptRuntime } from "../launch/descriptor.ts";
import { interpreterOf } from "../launch/registry.ts";
import type { StdioLaunch } from "../launch/spec.ts";
import { type HostView, isBroad, narrowAncestors, peek, peekReal } from "./host_view.ts";

/** The script an interpreter runs, found in a launch's argv. */
export interface Script {
  /** The interpreter's launcher, by its first scheme (`node`, `python`, `deno`). */
  runtime: string;
  /** What the sandbox shows of the script's surroundings (its launcher's `sandbox.script`). */
  needs: ScriptRuntime;
  /** Its index in `launch.args`. */
  index: number;
  /** Its absolute path (relative ones resolved against the server's working directory). */
  path: string;
}

/**
 * The script of an interpreter launch (`node S`, `python3 S`, `deno run … S`),
 * if any: the interpreter, its subcommand and its options as the launchers'
 * descriptors declare them (`sandbox.script`, lib/launch/).
 */
export function findScript(launch: StdioLaunch, cwd: string): Script | undefined {
  const interpreter = interpreterOf(launch.command);
  if (!interpreter) return undefined;
  const needs = interpreter.script;
  let index = 0;
  if (needs.subcommand !== undefined) {
    if (launch.args[0] !== needs.subcommand) return undefined;
    index = 1;
  }
  while (index < launch.args.length) {
    const arg = launch.args[index];
    if (arg === "--") {
      index++;
      break;
    }
    if (needs.noScript.includes(arg)) return undefined;
    if (!arg.startsWith("-")) break;
    index += needs.valueOptions.includes(arg) ? 2 : 1;
  }
  const arg = launch.args[index];
  if (arg === undefined || arg === "" || /^[a-z][a-z0-9+.-]*:/i.test(arg)) return undefined;
  const path = isAbsolute(arg) ? resolve(arg) : resolve(cwd, arg);
  return { runtime: interpreter.launcher.schemes[0], needs, index, path };
}

/**
 * The read-only paths a script's runtime needs: its package (or directory, or
 * the file alone) and, for Node, the `node_modules` trees it resolves from.
 * `script.path` is used with symlinks resolved (see {@linkcode withRealScript}).
 */
export function scriptMounts(script: Script, host: HostView): string[] {
  const home = host.env.HOME;
  const real = peekReal(host, script.path) ?? script.path;
  if (peek(host, real) !== "file") return [];
  const dir = dirname(real);
  const ancestors = narrowAncestors(dir, home);
  const packageDir = ancestors.find((ancestor) =>
    script.needs.packageMarkers.some((marker) => peek(host, join(ancestor, marker)) === "file")
  );
  const mounts = [packageDir ?? (ancestors.length > 0 ? dir : real)];
  if (script.needs.nodeModules) {
    for (const ancestor of ancestors) {
      const modules = join(ancestor, "node_modules");
      if (peek(host, modules) === "dir") mounts.push(modules);
    }
  }
  if (script.needs.userSitePackages) mounts.push(...userSitePackages(host));
  return mounts;
}

/**
 * The launch with its script named by its real path when the argv names a
 * symlink to it: the link itself is not in the sandbox, and Node and Python
 * resolve imports from the real location anyway.
 */
export function withRealScript(launch: StdioLaunch, cwd: string, host: HostView): StdioLaunch {
  const script = findScript(launch, cwd);
  if (!script) return launch;
  const real = peekReal(host, script.path);
  if (!real || real === script.path) return launch;
  const args = [...launch.args];
  args[script.index] = real;
  return { ...launch, args };
}

/** The user's site-packages directories (`pip install --user`), when they exist. */
function userSitePackages(host: HostView): string[] {
  const home = host.env.HOME;
  if (!home || !host.list) return [];
  const lib = join(home, ".local", "lib");
  return host.list(lib)
    .filter((name) => /^python3(\.\d+)?$/.test(name))
    .map((name) => join(lib, name, "site-packages"))
    .filter((path) => peek(host, path) === "dir");
}

/**
 * The directory a hidden launcher needs to run, from its path as given
 * (the planner asks for the path found on PATH and for its real path):
 * - above its `bin` directory, the installation of a known runtime layout:
 *   a virtualenv (`pyvenv.cfg`), a Node.js installation (`bin/node` and
 *   `lib/node_modules`: an nvm, fnm or volta version directory), a Python
 *   installation (`lib/python3.X/os.py`: a pyenv or uv version directory);
 * - a version manager's shim (`<root>/shims/python` beside `<root>/libexec`,
 *   pyenv): that manager's directory;
 * - otherwise its `bin` directory alone (`~/.cargo/bin`, never all of
 *   `~/.cargo` with its `credentials.toml`; the same for `~/go`, `~/.deno`,
 *   `~/.bun`), or the binary alone when it is not in a `bin` directory or
 *   that is broad (`~/.local/bin`).
 * Never a broad directory.
 */
export function installRoot(commandPath: string, home?: string, host?: HostView): string {
  const dir = dirname(commandPath);
  const prefix = dirname(dir);
  const layout = basename(dir);
  if (host && !isBroad(prefix, home)) {
    if (layout === "bin" && isRuntimePrefix(prefix, host)) return prefix;
    if (layout === "shims" && peek(host, join(prefix, "libexec")) === "dir") return prefix;
  }
  return layout === "bin" && !isBroad(dir, home) ? dir : commandPath;
}

/** Whether `prefix` is the installation of a runtime (see {@linkcode installRoot}). */
function isRuntimePrefix(prefix: string, host: HostView): boolean {
  if (peek(host, join(prefix, "pyvenv.cfg")) === "file") return true;
  if (
    peek(host, join(prefix, "bin", "node")) === "file" &&
    peek(host, join(prefix, "lib", "node_modules")) === "dir"
  ) {
    return true;
  }
  const lib = join(prefix, "lib");
  return (host.list?.(lib) ?? []).some((name) =>
    /^python3\.\d+$/.test(name) && peek(host, join(lib, name, "os.py")) === "file"
  );
}
