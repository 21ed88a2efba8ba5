/**
 * A host's config entry that runs `jn serve`, in that host's own shape, and
 * the reverse: whether an entry of a host's file runs jn, and what it
 * serves. Pure: the caller reads and writes the files (host_write.ts).
 *
 * Shapes written (each host's documented form for a local stdio server):
 *
 * | host                   | entry                                            |
 * |------------------------|--------------------------------------------------|
 * | Claude Desktop, Cursor, Windsurf | `{"command": …, "args": […]}`           |
 * | Claude Code            | `{"type": "stdio", "command": …, "args": […]}`   |
 * | VS Code                | `{"type": "stdio", "command": …, "args": […]}`   |
 * | Zed                    | `{"command": …, "args": […]}` under `context_servers` |
 *
 * An entry runs jn when its program is named `jn` (any directory) and its
 * first argument is `serve`, or when its argv begins with the argv `jn host
 * add` writes for this jn (`deno run … /abs/main.ts` from source, see
 * lib/client/hosts.ts) followed by `serve`. What it serves is the words after `serve` that are sources
 * (`@profile`, `mcp+…`); its flags are not read.
 *
 * @module
 */

import { isPlainObject } from "../fields.ts";
import type { EditorName } from "./editor_names.ts";
import type { ConfigLocation } from "./import_paths.ts";
import type { JsonPath } from "./jsonc_edit.ts";

/** A program and its arguments. */
export interface Argv {
  /** The program (an absolute path where jn writes one). */
  command: string;
  /** Its arguments. */
  args: string[];
}

/** The entry a host's config gets for `argv` (see the module's table). */
export function hostEntry(host: EditorName, argv: Argv): Record<string, unknown> {
  const plain = { command: argv.command, args: [...argv.args] };
  switch (host) {
    case "claude-code":
    case "vscode":
      return { type: "stdio", ...plain };
    case "claude":
    case "cursor":
    case "windsurf":
    case "zed":
      return plain;
    default: {
      const never: never = host;
      throw new Error(`Unknown host ${never}`);
    }
  }
}

/** Where entry `name` lives in a location's file, as a JSON path. */
export function entryPath(location: ConfigLocation, name: string): JsonPath {
  switch (location.key) {
    case "mcpServers":
    case "servers":
    case "context_servers":
      return [location.key, name];
    case "mcp.servers":
      return ["mcp", "servers", name];
    case "claude-local":
      return ["projects", location.workspace ?? "", "mcpServers", name];
  }
}

/** The shape of a file holding only `entry` at `path`: what `--dry-run` prints. */
export function snippet(path: JsonPath, entry: unknown): unknown {
  return path.reduceRight<unknown>((inner, key) => ({ [key]: inner }), entry);
}

/** What a jn entry serves. */
export interface JnServe {
  /** The sources after `serve` (`@profile`, `mcp+…`). */
  sources: string[];
  /** Whether it runs jn as `jn host add` would write it now (else a `jn` program found by name). */
  current: boolean;
}

/**
 * Whether `entry` (a host's, as its file holds it: untrusted) runs `jn
 * serve`, and what it serves; undefined for any other entry. `jn` is the
 * argv that runs jn as `jn host add` writes it (no arguments after it).
 */
export function jnServeOf(entry: unknown, jn: Argv): JnServe | undefined {
  if (!isPlainObject(entry)) return undefined;
  // Zed's older shape: {"command": {"path", "args"}}.
  const nested = isPlainObject(entry.command) ? entry.command : undefined;
  const command = nested ? nested.path : entry.command;
  const args = nested && entry.args === undefined ? nested.args : entry.args;
  if (typeof command !== "string" || !Array.isArray(args)) return undefined;
  if (!args.every((arg) => typeof arg === "string")) return undefined;
  const words = args as string[];
  const jnWords = [jn.command, ...jn.args];
  const argv = [command, ...words];
  let serveAt: number;
  let current = false;
  if (jnWords.every((word, i) => argv[i] === word) && argv[jnWords.length] === "serve") {
    serveAt = jnWords.length;
    current = true;
  } else if (/(^|[\\/])jn(\.exe)?$/.test(command) && words[0] === "serve") {
    serveAt = 1;
  } else {
    return undefined;
  }
  const sources = argv.slice(serveAt + 1).filter((word) =>
    word.startsWith("@") || word.startsWith("mcp+")
  );
  return { sources, current };
}
