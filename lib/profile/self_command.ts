/**
 * How jn starts itself as a server (the `@demo` profile, and any profile whose
 * `command` is `"jn"`): the same executable, whatever it is. A `deno compile`
 * binary is `Deno.execPath()` itself; from source it is
 * `deno run <jn's permission flags> /abs/main.ts`. Compiled mode is detected
 * with `Deno.build.standalone`, which Deno sets in compiled binaries only.
 *
 * @module
 */

import { fileURLToPath } from "node:url";
import { permissionFlags } from "../sandbox/permissions.ts";

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
 */
export function selfCommand(args: readonly string[]): SelfCommand {
  if (isCompiled()) return { command: Deno.execPath(), args: [...args], envPassthrough: [] };
  const main = fileURLToPath(new URL("../../main.ts", import.meta.url));
  return {
    command: Deno.execPath(),
    args: ["run", ...permissionFlags(), main, ...args],
    // Without it a child with another HOME-derived cache would download jn's npm packages again.
    envPassthrough: ["DENO_DIR"],
  };
}
