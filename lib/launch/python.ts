/**
 * The python launcher: `mcp+python://PATH` → `python3 /abs/PATH ARGS…`, the
 * path made absolute against the caller's cwd (script.ts).
 *
 * Sandboxed, the script's package (the nearest directory with
 * `pyproject.toml`, `setup.py` or `setup.cfg`) and the user's site-packages
 * are visible read-only; a virtualenv is reached through its interpreter.
 *
 * @module
 */

import type { LauncherDescriptor } from "./descriptor.ts";
import { checkScriptPath } from "./script.ts";

/** `mcp+python://`: a Python script, run by python3. */
export const python: LauncherDescriptor = {
  schemes: ["python"],
  usage: "mcp+python://PATH",
  help: "a Python script: python3 PATH",
  location: checkScriptPath,
  build: (target, ctx) => ({
    transport: "stdio",
    command: "python3",
    args: [ctx.absolute(target.location), ...target.command],
    env: {},
    label: `python ${target.location}`,
  }),
  programs: ["python3", "python"],
  installHint: "install Python 3 (https://www.python.org/downloads/)",
  sandbox: {
    script: {
      programs: /^(python|pypy)(\d+(\.\d+)?)?$/,
      packageMarkers: ["pyproject.toml", "setup.py", "setup.cfg"],
      valueOptions: ["-W", "-X", "-Q"],
      noScript: ["-e", "--eval", "-p", "--print", "-c", "-m", "-"],
      userSitePackages: true,
    },
  },
};
