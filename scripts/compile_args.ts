/**
 * The `deno compile` command line of each release target, kept apart from
 * scripts/compile.ts so that the tests can run the very same entry point (the
 * bundle's main.js) with the very same permission flags through `deno run` (a
 * compiled binary cannot be built where the Deno runtime download is
 * unreachable).
 *
 * @module
 */

import { BUNDLE_MAIN, bundledCommandModules } from "./bundle.ts";

/** The release targets: Linux and macOS on x86_64 and aarch64, Windows on x86_64. */
export const TARGETS: readonly string[] = [
  "x86_64-unknown-linux-gnu",
  "aarch64-unknown-linux-gnu",
  "x86_64-apple-darwin",
  "aarch64-apple-darwin",
  "x86_64-pc-windows-msvc",
];

/** The file name of jn for a target, e.g. `jn-x86_64-unknown-linux-gnu`, `jn-x86_64-pc-windows-msvc.exe`. */
export function binaryName(target: string): string {
  return `jn-${target}${target.includes("windows") ? ".exe" : ""}`;
}

/** Options of {@linkcode compileArgs}. */
export interface CompileArgsOptions {
  /** The folder of jn's bundle (scripts/bundle.ts), absolute. */
  bundle: string;
  /** The output directory. */
  out: string;
  /** jn's permission flags (`permissionFlags()`), baked into the executable. */
  flags: string[];
}

/**
 * The arguments of `deno` that compile jn for `target`, from its bundle
 * (scripts/bundle.ts: npm packages inlined, so no configuration is needed).
 *
 * @example
 * ```ts
 * compileArgs("x86_64-unknown-linux-gnu", { bundle: "/tmp/b", out: "/src/jn/dist", flags: permissionFlags() });
 * // ["compile", "--target", "x86_64-unknown-linux-gnu", "--output", "/src/jn/dist/jn-x86_64-unknown-linux-gnu",
 * //  "--no-config", "--allow-read", …, "--no-prompt",
 * //  "--include", "/tmp/b/lib/cli/commands/inspect.js", …, "/tmp/b/main.js"]
 * ```
 */
export function compileArgs(target: string, options: CompileArgsOptions): string[] {
  return [
    "compile",
    "--target",
    target,
    "--output",
    `${options.out}/${binaryName(target)}`,
    "--no-config",
    ...options.flags,
    // The bundle's main.js loads the command modules through a computed specifier (so `deno
    // run` does not analyse their graphs at start-up): the executable must be given them.
    ...bundledCommandModules().flatMap((module) => ["--include", `${options.bundle}/${module}`]),
    `${options.bundle}/${BUNDLE_MAIN}`,
  ];
}

/** Whether `deno compile` failed because it could not get the runtime (denort) of a target. */
export function isDenortDownloadFailure(stderr: string): boolean {
  return /Setting up base binary|denort|dl\.deno\.land/i.test(stderr);
}
