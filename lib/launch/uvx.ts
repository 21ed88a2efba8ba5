/**
 * The uvx launcher: `mcp+uvx://PKG[/CMD]` → `uvx --from PKG CMD ARGS…`, or
 * `uvx PKG ARGS…` when no command is named (uvx then runs the package's
 * same-named command). A PyPI name never contains `/`, so the first `/`
 * separates PKG from CMD.
 *
 * Isolation: uvx (`uv tool run`) reads no project configuration and no
 * project virtualenv by uv's design; `UV_NO_CONFIG=1` makes that independent
 * of uv's version (user-level `uv.toml` is then not read either: give uv's
 * settings as `UV_*` variables through `env` or `--env-passthrough`). A
 * launch that declares `UV_NO_CONFIG` itself keeps its value.
 *
 * Sandboxed, uv's cache, tool and Python directories point into a cache jn
 * owns for the server, keyed by the whole argv; `UV_OFFLINE=1` without
 * network, so uv fails at once instead of waiting on a network it lacks.
 *
 * @module
 */

import { type LauncherDescriptor, type LocationContext, programName } from "./descriptor.ts";
import type { StdioLaunch } from "./spec.ts";

/** `mcp+uvx://`: a PyPI package's command, run by uv. */
export const uvx: LauncherDescriptor = {
  schemes: ["uvx"],
  usage: "mcp+uvx://PKG[/CMD]",
  help: "a PyPI package: uvx --from PKG CMD (or uvx PKG)",
  location: checkPackageCommand,
  build(target) {
    const slash = target.location.indexOf("/");
    const args = slash === -1 ? [target.location, ...target.command] : [
      "--from",
      target.location.slice(0, slash),
      target.location.slice(slash + 1),
      ...target.command,
    ];
    return isolateUv({
      transport: "stdio",
      command: "uvx",
      args,
      env: {},
      label: `uvx ${target.location}`,
    });
  },
  programs: ["uvx", "uv"],
  installHint: "install uv (https://docs.astral.sh/uv/)",
  isolate: isolateUv,
  sandbox: {
    ownCache: {
      name: "uv",
      key: "argv",
      dir: "uv",
      env: {
        UV_CACHE_DIR: "cache",
        UV_TOOL_DIR: "tools",
        UV_TOOL_BIN_DIR: "bin",
        UV_PYTHON_INSTALL_DIR: "python",
      },
      offlineEnv: { UV_OFFLINE: "1" },
    },
  },
};

/** `PACKAGE` or `PACKAGE/COMMAND`; a PyPI name never contains `/`. */
function checkPackageCommand(raw: string, ctx: LocationContext): string {
  const slash = raw.indexOf("/");
  const pkg = ctx.word(slash === -1 ? raw : raw.slice(0, slash), "package name");
  if (slash === -1) return pkg;
  const start = ctx.start + slash + 1;
  const cmdRaw = raw.slice(slash + 1);
  const extra = cmdRaw.indexOf("/");
  if (extra !== -1) {
    ctx.fail(
      start + extra,
      `uvx takes PACKAGE or PACKAGE/COMMAND, not a second "/"`,
      "pass server arguments with ?command=ARG",
    );
  }
  return `${pkg}/${ctx.word(cmdRaw, "command name", { start })}`;
}

/** `UV_NO_CONFIG=1` for `uvx …` and `uv tool run|uvx …`, unless the launch declares it. */
function isolateUv(launch: StdioLaunch): StdioLaunch {
  const name = programName(launch.command);
  const uvTool = name === "uv" && launch.args[0] === "tool" &&
    ["run", "uvx"].includes(launch.args[1]);
  if ((name !== "uvx" && !uvTool) || launch.env.UV_NO_CONFIG !== undefined) return launch;
  return { ...launch, env: { ...launch.env, UV_NO_CONFIG: "1" } };
}
