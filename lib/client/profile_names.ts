/**
 * Profile and profile-tool names for shell completion, read straight from
 * the directories of the profile layers (SPEC §4): project
 * `.jn/profiles/mcp/`, `~/.local/jn/profiles/mcp/`, `$JN_HOME/profiles/mcp/`,
 * and the names of the bundled profiles (embedded in jn). Nothing is parsed
 * or launched, so completion stays fast and never fails: an unreadable layer
 * is skipped.
 *
 * Only names of the profile-name grammar ({@linkcode SERVER_NAME}) are ever
 * returned: a directory name comes from an untrusted repository and is
 * printed into a shell's completion, so a name with spaces, quotes, `$(…)`,
 * backticks, newlines or control characters is never offered. Project-layer
 * names are offered even before `jn profile trust`: a name is inert data
 * (completing it launches nothing; running it still asks for trust).
 *
 * @module
 */

import { isAbsolutePath as isAbsolute, joinPath as join } from "../profile/paths.ts";
import { BUNDLED_PROFILES } from "../profile/bundled_data.ts";
import { homeDir, SERVER_NAME } from "../profile/layers.ts";

/** A tool file's name: the profile-name grammar plus `.json`/`.jsonc`. */
const TOOL_FILE = /^([A-Za-z0-9-][A-Za-z0-9._-]*)\.jsonc?$/;

/** Where to look: the caller's directory and environment. */
export interface NameOptions {
  cwd: string;
  env: Record<string, string>;
}

/** `server/file` names of the bundled profiles. */
function bundledFiles(): string[] {
  return Object.keys(BUNDLED_PROFILES);
}

/** The profile directories to look in, highest precedence first. */
function layerDirs(options: NameOptions): string[] {
  const dirs = [join(options.cwd, ".jn", "profiles", "mcp")];
  // The CLI's rule (layers.ts): a relative HOME or JN_HOME names no layer (the CLI refuses a
  // relative JN_HOME), so completion never reads one from the current directory either.
  const home = homeDir(options.env);
  if (home) dirs.push(join(home, ".local", "jn", "profiles", "mcp"));
  const jnHome = options.env.JN_HOME;
  if (jnHome && isAbsolute(jnHome)) dirs.push(join(jnHome, "profiles", "mcp"));
  return dirs;
}

/** Every profile name (without `@`), sorted, each once. */
export async function profileNames(options: NameOptions): Promise<string[]> {
  const names = new Set<string>(bundledFiles().map((file) => file.split("/")[0]));
  for (const dir of layerDirs(options)) {
    for (const entry of await entries(dir)) {
      if (entry.isDirectory && SERVER_NAME.test(entry.name)) names.add(entry.name);
    }
  }
  return [...names].sort();
}

/** The tool names a profile defines in tool files (`search.json` → `search`), sorted. */
export async function profileToolNames(server: string, options: NameOptions): Promise<string[]> {
  if (!SERVER_NAME.test(server)) return [];
  const names = new Set<string>();
  for (const file of bundledFiles()) {
    const [name, tool] = file.split("/");
    const match = name === server ? TOOL_FILE.exec(tool) : null;
    if (match) names.add(match[1]);
  }
  for (const dir of layerDirs(options)) {
    for (const entry of await entries(join(dir, server))) {
      const match = TOOL_FILE.exec(entry.name);
      if (entry.isFile && match) names.add(match[1]);
    }
  }
  return [...names].sort();
}

async function entries(dir: string): Promise<Deno.DirEntry[]> {
  const list: Deno.DirEntry[] = [];
  try {
    for await (const entry of Deno.readDir(dir)) list.push(entry);
  } catch {
    // Missing, unreadable or not permitted: nothing to offer from this layer.
  }
  return list;
}
