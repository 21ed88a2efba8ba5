/**
 * The npx launcher: `mcp+npx://PKG` → `npx --prefix /dev/null -y PKG ARGS…`.
 * PKG is any npm spec: `pkg`, `pkg@1`, `@scope/pkg@latest`. `-y` answers
 * npx's install prompt, which would otherwise wait on a stdin that belongs to
 * the MCP protocol.
 *
 * Isolation: npx (npm exec) reads the project's `.npmrc`
 * (`node-options=--require ./evil.cjs` runs the repository's code) and
 * prefers a package installed in the project's `node_modules` to the one
 * asked for. `--prefix /dev/null` makes npm's project an empty one that
 * nothing can be put in: no project `.npmrc`, no local package; the server
 * still runs in the working directory. The user's `~/.npmrc` is still read;
 * npm's global config (`$PREFIX/etc/npmrc`) is not, as npm ties it to the
 * prefix (lib/sandbox/npm_config.ts names it again). A launch that sets its
 * own `--prefix` keeps it. Windows has no `/dev/null`: there the argv is
 * unchanged.
 *
 * Sandboxed, a package already in npm's cache starts from it directly,
 * read-only (lib/sandbox/npx_cache.ts); otherwise npm runs with a cache jn
 * owns for the server, keyed by the package specs, and offline without
 * network.
 *
 * @module
 */

import { type LauncherDescriptor, type LocationContext, programName } from "./descriptor.ts";
import type { StdioLaunch } from "./spec.ts";

/** npm's project prefix for npx: a path that exists everywhere and can hold nothing. */
export const NPX_PREFIX = "/dev/null";

/** `mcp+npx://`: an npm package's bin, run by npx. */
export const npx: LauncherDescriptor = {
  schemes: ["npx"],
  usage: "mcp+npx://PKG",
  help: "an npm package: npx -y PKG",
  location: checkNpmSpec,
  build: (target, ctx) =>
    isolateNpx({
      transport: "stdio",
      command: "npx",
      args: ["-y", target.location, ...target.command],
      env: {},
      label: `npx ${target.location}`,
    }, ctx.os),
  programs: ["npx", "npm"],
  installHint: "install Node.js (https://nodejs.org/)",
  isolate: isolateNpx,
  sandbox: {
    cachedPackages: "npx",
    hostCache: { env: "npm_config_cache", envAnyCase: true, home: ".npm" },
    ownCache: {
      name: "npx",
      key: "packages",
      dir: "npm",
      env: { npm_config_cache: "" },
      fixedEnv: { npm_config_update_notifier: "false" },
      offlineEnv: { npm_config_offline: "true" },
    },
  },
};

/** An npm package spec: `pkg`, `pkg@1.2.3`, `@scope/pkg@latest`, … */
function checkNpmSpec(raw: string, ctx: LocationContext): string {
  const pkg = ctx.word(raw, "package name");
  if (raw.startsWith("@")) {
    const slash = raw.indexOf("/");
    if (slash === 1) ctx.fail(ctx.start + 1, "npm scope is empty");
    if (slash === -1) {
      ctx.fail(
        ctx.start + raw.length,
        `scoped package "${pkg}" has no name`,
        `write it as @scope/name, e.g. mcp+npx://@upstash/context7-mcp`,
      );
    }
    if (slash === raw.length - 1 || raw[slash + 1] === "@") {
      ctx.fail(ctx.start + slash + 1, "package name is empty after the scope");
    }
  }
  return pkg;
}

/** `--prefix /dev/null` before the arguments of `npx …` and `npm exec|x …` (see the module doc). */
function isolateNpx(launch: StdioLaunch, os: string): StdioLaunch {
  const name = programName(launch.command);
  const npm = name === "npm" && ["exec", "x"].includes(launch.args[0]);
  if ((name !== "npx" && !npm) || os === "windows") return launch;
  if (hasOwnPrefix(launch.args.slice(npm ? 1 : 0))) return launch;
  return { ...launch, args: ["--prefix", NPX_PREFIX, ...launch.args] };
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
