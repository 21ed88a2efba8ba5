/**
 * lib/launch: one descriptor per launcher: scheme, LOCATION rule, argv,
 * install hint, isolation, sandbox needs, help.
 *
 * The registry: every launcher jn knows, each a
 * {@linkcode LauncherDescriptor} in a file of its own. Adding a launcher is
 * its file and one entry here (its import and its place in
 * {@linkcode LAUNCHERS}); removing one is the reverse. Everything else —
 * the URI parser (lib/uri), the launch (build.ts), the isolation of every
 * stdio launch (isolation.ts), the sandbox (what each launcher needs of the
 * host, lib/sandbox), the session's "not found on PATH" hint, the completion
 * of a source word and the help — reads the descriptors through the
 * functions below and names no launcher.
 *
 * Every descriptor loads with the registry: the parser needs each one's
 * schemes and LOCATION rule before it knows which one a URI names, and the
 * isolation applies to every stdio launch (a profile's `npx` too), so there
 * is nothing a URI could leave unloaded. Descriptors import nothing of Node's
 * (descriptor.ts), which keeps this light enough for `jn __complete source`.
 *
 * @module
 */

import type { LauncherDescriptor, ScriptRuntime } from "./descriptor.ts";
import { defaultShortName, type LaunchTarget, programName } from "./descriptor.ts";
import { cmd } from "./cmd.ts";
import { deno } from "./deno.ts";
import { http } from "./http.ts";
import { node } from "./node.ts";
import { npx } from "./npx.ts";
import { python } from "./python.ts";
import { uvx } from "./uvx.ts";

export type { LauncherDescriptor } from "./descriptor.ts";

/** Every launcher, in the order help and completion list them. */
export const LAUNCHERS: readonly LauncherDescriptor[] = [uvx, npx, python, node, deno, cmd, http];

/** The launcher `mcp+SCHEME://` names (schemes are lowercase), if any. */
export function launcherOf(scheme: string): LauncherDescriptor | undefined {
  return LAUNCHERS.find((launcher) => launcher.schemes.includes(scheme));
}

/** Every scheme, in the order help lists them: `uvx`, `npx`, …, `http`, `https`. */
export function launcherSchemes(): string[] {
  return LAUNCHERS.flatMap((launcher) => launcher.schemes);
}

/** What a shell's completion offers for a source word that names no profile. */
export function launcherCompletions(): string[] {
  return LAUNCHERS.flatMap((launcher) =>
    launcher.completions ?? launcher.schemes.map((scheme) => `mcp+${scheme}://`)
  );
}

/**
 * A short name of a naked URI's server, for lines repeated while it works:
 * its launcher's own rule, else LOCATION's last segment without a version.
 *
 * @example
 * ```ts
 * shortName({ launcher: "npx", location: "@scope/pkg@1", command: [] }); // "pkg"
 * ```
 */
export function shortName(target: LaunchTarget): string {
  return launcherOf(target.launcher)?.short?.(target) ?? defaultShortName(target.location);
}

/**
 * The naked URI of a server given as an argv (`jn inspect -- PROGRAM
 * ARGS…`): the argv launcher's scheme, PROGRAM as LOCATION, each argument a
 * `command=` value, then `query` (`?tool=NAME&k=v`, as typed), so the argv
 * form and the URI form are one launch. Escaped: `%`, `&`, `=`, `?`, `#`,
 * and what is not printable ASCII.
 *
 * @example
 * ```ts
 * argvUri(["node", "server.js", "--port=1"], "?tool=add");
 * // "mcp+cmd://node?command=server.js&command=--port%3D1&tool=add"
 * ```
 */
export function argvUri(argv: readonly string[], query = ""): string {
  const launcher = LAUNCHERS.find((l) => l.argv);
  if (launcher === undefined || argv.length === 0) {
    throw new TypeError("argvUri() needs an argv and a launcher that takes one");
  }
  const escape = (word: string) =>
    word.replace(/[%&=?#]|[^\x21-\x7e]/gu, (c) => encodeURIComponent(c));
  const keys = [
    ...argv.slice(1).map((word) => `command=${escape(word)}`),
    ...(query.replace(/^\?/, "") === "" ? [] : [query.replace(/^\?/, "")]),
  ];
  const tail = keys.length === 0 ? "" : `?${keys.join("&")}`;
  return `mcp+${launcher.schemes[0]}://${escape(argv[0])}${tail}`;
}

/**
 * The launcher that starts `command`'s program (`npx`, `/usr/bin/uv`,
 * `deno.exe`: by {@linkcode programName}), if any: a profile's `"command"`
 * is recognised as the launch of a naked URI is.
 *
 * @example
 * ```ts
 * launcherOfProgram("/usr/bin/uv")?.schemes; // ["uvx"]
 * ```
 */
export function launcherOfProgram(command: string): LauncherDescriptor | undefined {
  const name = programName(command);
  return LAUNCHERS.find((launcher) => launcher.programs.includes(name));
}

/** An interpreter a launch runs: its launcher and what the sandbox needs of its script. */
export interface Interpreter {
  launcher: LauncherDescriptor;
  script: ScriptRuntime;
}

/**
 * The interpreter `command` is (`node`, `python3.12`, `bun`): the launcher
 * whose `sandbox.script.programs` matches its program name, if any.
 */
export function interpreterOf(command: string): Interpreter | undefined {
  const name = programName(command);
  for (const launcher of LAUNCHERS) {
    const script = launcher.sandbox?.script;
    if (script?.programs.test(name)) return { launcher, script };
  }
  return undefined;
}

/** The schemes of the launchers that start a process (a sandbox applies to these). */
export function localSchemes(): string[] {
  // A launcher of any program (cmd) names none in `programs`, but starts one.
  return LAUNCHERS.filter((launcher) => launcher.programs.length > 0 || launcher.argv)
    .map((launcher) => launcher.schemes[0]);
}

/**
 * What to do when `command` (a launch's program) is not on PATH: the hint of
 * the launcher that starts that program, else a general one.
 *
 * @example
 * ```ts
 * installHint("/usr/local/bin/uvx"); // "install uv (https://docs.astral.sh/uv/)"
 * ```
 */
export function installHint(command: string): string {
  return launcherOfProgram(command)?.installHint ?? "check the command name, or give its full path";
}
