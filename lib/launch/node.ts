/**
 * The node launcher: `mcp+node://PATH` → `node /abs/PATH ARGS…`, the path
 * made absolute against the caller's cwd (script.ts).
 *
 * Sandboxed, the script's package (the nearest directory with
 * `package.json`) and every `node_modules` Node's resolution walks through
 * are visible read-only.
 *
 * @module
 */

import type { LauncherDescriptor } from "./descriptor.ts";
import { checkScriptPath } from "./script.ts";

/** `mcp+node://`: a Node.js script, run by node. */
export const node: LauncherDescriptor = {
  schemes: ["node"],
  usage: "mcp+node://PATH",
  help: "a Node.js script: node PATH",
  location: checkScriptPath,
  build: (target, ctx) => ({
    transport: "stdio",
    command: "node",
    args: [ctx.absolute(target.location), ...target.command],
    env: {},
    label: `node ${target.location}`,
  }),
  programs: ["node"],
  installHint: "install Node.js (https://nodejs.org/)",
  sandbox: {
    script: {
      programs: /^(node|nodejs|bun)$/,
      packageMarkers: ["package.json"],
      valueOptions: [
        "-r",
        "--require",
        "--import",
        "--loader",
        "--experimental-loader",
        "-C",
        "--conditions",
      ],
      noScript: ["-e", "--eval", "-p", "--print", "-c", "-m", "-"],
      nodeModules: true,
    },
  },
};
