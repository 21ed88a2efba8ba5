/**
 * `mcp+deno://PATH` → `deno run --no-prompt --allow-read=DIR [extra] /abs/PATH ARGS…`.
 * The default sandbox lets the server read only its own directory; anything
 * more must be granted explicitly (`denoPermissions`). `--no-prompt` turns a
 * permission request into an error instead of a prompt on the protocol's
 * stdin.
 *
 * @module
 */

import { dirname } from "node:path";
import { UsageError } from "../errors.ts";
import type { NakedSource } from "../uri/source.ts";
import { absolutePath, type LaunchOptions } from "./options.ts";
import type { StdioLaunch } from "./spec.ts";

/** The argv of a Deno script server; ARGS are the source's `command=` values. */
export function buildDenoLaunch(source: NakedSource, options: LaunchOptions): StdioLaunch {
  const script = absolutePath(source.location, options);
  const dir = dirname(script);
  if (dir.includes(",")) {
    // Deno splits permission lists on "," and has no escape for it.
    throw new UsageError(
      `Cannot sandbox "${source.location}": its directory "${dir}" contains ","`,
      { hint: "move the script to a directory without a comma in its path" },
    );
  }
  const extra = options.denoPermissions ?? [];
  for (const flag of extra) {
    if (!/^--[a-z]/.test(flag)) {
      throw new UsageError(
        `Invalid Deno permission flag "${flag}": expected --allow-… or --deny-…`,
      );
    }
  }
  return {
    transport: "stdio",
    command: options.denoPath ?? "deno",
    args: [
      "run",
      "--no-prompt",
      `--allow-read=${dir}`,
      ...extra,
      script,
      ...source.command,
    ],
    env: {},
    label: `deno ${source.location}`,
  };
}
