/**
 * The launch of a naked source, loading only its own launcher's module
 * (dynamic `import()`, literal so that `deno compile` and the bundle see
 * it): what `open()` uses, so that `mcp+uvx://` does not load the Deno,
 * Node, Python, npx and HTTP adapters. Gives exactly what
 * {@linkcode buildLaunch} (registry.ts, the synchronous form) gives,
 * errors included; tests/launch/registry_test.ts checks both on every case.
 *
 * @module
 */

import type { NakedSource } from "../uri/source.ts";
import type { LaunchOptions } from "./options.ts";
import type { LaunchSpec } from "./spec.ts";

/** {@linkcode buildLaunch}, loading only the launcher `source` names. */
export async function loadLaunch(source: NakedSource, options: LaunchOptions): Promise<LaunchSpec> {
  switch (source.launcher) {
    case "uvx":
      return (await import("./uvx.ts")).buildUvxLaunch(source);
    case "npx":
      return (await import("./npx.ts")).buildNpxLaunch(source);
    case "python":
      return (await import("./python.ts")).buildPythonLaunch(source, options);
    case "node":
      return (await import("./node.ts")).buildNodeLaunch(source, options);
    case "deno":
      return (await import("./deno.ts")).buildDenoLaunch(source, options);
    case "http":
    case "https":
      return (await import("./http.ts")).buildHttpLaunch(source);
    default: {
      const never: never = source.launcher;
      throw new Error(`Unhandled launcher ${never}`);
    }
  }
}
