/**
 * The deno launcher: `mcp+deno://PATH` →
 * `deno run --no-prompt --allow-read=DIR [extra] /abs/PATH ARGS…`. The
 * default permissions let the server read only its own directory; anything
 * more must be granted explicitly (`denoPermissions`). `--no-prompt` turns a
 * permission request into an error instead of a prompt on the protocol's
 * stdin.
 *
 * Sandboxed, the script's package (`deno.json(c)` or `package.json`), the
 * `node_modules` above it and the Deno cache (`DENO_DIR`) are visible
 * read-only; a host without a Deno cache gets an empty throw-away one.
 *
 * @module
 */

import { UsageError } from "../errors.ts";
import type { LauncherDescriptor } from "./descriptor.ts";
import { checkScriptPath } from "./script.ts";

/** `mcp+deno://`: a Deno script, run with read access to its own directory only. */
export const deno: LauncherDescriptor = {
  schemes: ["deno"],
  usage: "mcp+deno://PATH",
  help: "a Deno script, allowed to read its own directory",
  location: checkScriptPath,
  build(target, ctx) {
    const script = ctx.absolute(target.location);
    const dir = ctx.dirname(script);
    if (dir.includes(",")) {
      // Deno splits permission lists on "," and has no escape for it.
      throw new UsageError(
        `Cannot sandbox "${target.location}": its directory "${dir}" contains ","`,
        { hint: "move the script to a directory without a comma in its path" },
      );
    }
    const extra = ctx.denoPermissions ?? [];
    for (const flag of extra) {
      if (!/^--[a-z]/.test(flag)) {
        throw new UsageError(
          `Invalid Deno permission flag "${flag}": expected --allow-… or --deny-…`,
        );
      }
    }
    return {
      transport: "stdio",
      command: ctx.denoPath ?? "deno",
      args: ["run", "--no-prompt", `--allow-read=${dir}`, ...extra, script, ...target.command],
      env: {},
      label: `deno ${target.location}`,
    };
  },
  programs: ["deno"],
  installHint: "install Deno (npm install -g deno@2.9.6)",
  sandbox: {
    script: {
      programs: /^deno$/,
      subcommand: "run",
      packageMarkers: ["deno.json", "deno.jsonc", "package.json"],
      valueOptions: ["-c", "--config", "--import-map", "--lock", "--cert", "--location", "--seed"],
      noScript: [],
      nodeModules: true,
    },
    hostCache: { env: "DENO_DIR", userCache: "deno" },
    denoPermissions: true,
  },
};
