/**
 * How jn starts itself as a server (the `@demo` profile, and any profile whose
 * `command` is `"jn"`): the same executable, whatever it is. A `deno compile`
 * binary is `Deno.execPath()` itself; from source it is
 * `deno run <jn's permission flags> /abs/main.ts`; from the bundle
 * (scripts/bundle.ts), wherever it lives, `deno run --no-config <flags>
 * /abs/main.js`, the entry the bundle recorded (self_entry.ts) — not a path
 * relative to this module, which is a chunk of the bundle there. Compiled
 * mode is detected with `Deno.build.standalone`, which Deno sets in compiled
 * binaries only.
 *
 * @module
 */

import { fileURLToPath } from "node:url";
import { permissionFlags } from "../sandbox/permissions.ts";
import { bundleEntry } from "./self_entry.ts";

/** The `command` value that means "this jn" in a profile. */
export const SELF_COMMAND = "jn";

/** The program and leading arguments that run this jn. */
export interface SelfCommand {
  command: string;
  args: string[];
  /** Caller variables the child needs to find what the parent uses (Deno's cache). */
  envPassthrough: string[];
}

/** Whether this process is a `deno compile` binary. */
export function isCompiled(): boolean {
  return (Deno.build as { standalone?: boolean }).standalone === true;
}

/**
 * The argv that runs this jn with `args`.
 *
 * @example
 * selfCommand(["mcp", "demo-server"]);
 * // compiled: { command: "/usr/local/bin/jn", args: ["mcp", "demo-server"], … }
 * // source:   { command: "/usr/bin/deno", args: ["run", "--allow-read", …, "/src/jn/main.ts", "mcp", "demo-server"], … }
 * // bundle:   { command: "/usr/bin/deno", args: ["run", "--no-config", "--allow-read", …, "/opt/jn/main.js", "mcp", "demo-server"], … }
 */
export function selfCommand(args: readonly string[]): SelfCommand {
  if (isCompiled()) return { command: Deno.execPath(), args: [...args], envPassthrough: [] };
  const bundle = bundleEntry();
  const main = fileURLToPath(bundle ?? new URL("../../main.ts", import.meta.url));
  return {
    command: Deno.execPath(),
    // The bundle runs as its own tests run it: no deno.json of the caller's folder applies.
    args: [
      "run",
      ...(bundle === undefined ? [] : ["--no-config"]),
      ...permissionFlags(),
      main,
      ...args,
    ],
    // Without it a child with another HOME-derived cache would download jn's npm packages again.
    envPassthrough: ["DENO_DIR"],
  };
}
