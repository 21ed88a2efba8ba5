/**
 * The entries of MCP hosts' config files that run `jn serve`: listed for
 * every host and scope (`hostList`), and taken out (`hostRemove`). Files
 * are read the bounded way and never trusted: a file that cannot be read or
 * parsed is a problem of the listing (said, the others listed), and is not
 * edited. An entry is jn's by lib/profile/edit/host_entry.ts `jnServeOf`;
 * `hostRemove` takes out only jn's entries, keeping every other line of the
 * file (a backup first, as `hostAdd`).
 *
 * @module
 */

import { ConfigError } from "../errors.ts";
import { MAX_CONFIG_BYTES, readBoundedText } from "../profile/bounded_read.ts";
import { serverEntries } from "../profile/edit/import.ts";
import { entryPath, jnServeOf } from "../profile/edit/host_entry.ts";
import { type HostFile, readHostFile, writeHostFile } from "../profile/edit/host_write.ts";
import {
  type ConfigScope,
  EDITOR_NAMES,
  type EditorName,
  hostConfigs,
} from "../profile/edit/import_paths.ts";
import { removeValue } from "../profile/edit/jsonc_edit.ts";
import { isPlainObject } from "../profile/fields.ts";
import { parseJsonc } from "../profile/load.ts";
import { checkHost, configRoots, type HostOptions, jnCommand, profileName } from "./hosts.ts";

/** One host entry that runs jn. Strings come from files jn did not write. */
export interface HostEntryRecord {
  /** The host (`claude` is Claude Desktop). */
  host: EditorName;
  /** Whose file: the user's, or the project's. */
  scope: ConfigScope;
  /** What the file is (`Cursor (user)`). */
  label: string;
  /** The file. */
  file: string;
  /** The entry's name. */
  name: string;
  /** What it serves (`@profile`, `mcp+…`). */
  sources: string[];
  /** The entry's program. */
  command: string;
  /** Its arguments. */
  args: string[];
  /** It runs jn as `jn host add` would write it now (else another jn, or an older path). */
  current: boolean;
  /** The host has it switched off (`"disabled": true`, Zed's `"enabled": false`). */
  disabled?: true;
}

/** What {@linkcode hostList} found. */
export interface HostListing {
  /** The entries that run jn, host by host in help order, each host's files by precedence. */
  entries: HostEntryRecord[];
  /** Files that could not be read, one line each (untrusted text). */
  problems: string[];
}

/**
 * Every entry of every host's config files (user and project) that runs jn.
 *
 * @example
 * ```ts ignore
 * import { hostList } from "@jn/jn";
 *
 * const { entries } = await hostList({ cwd: Deno.cwd(), env: Deno.env.toObject() });
 * for (const e of entries) console.log(e.host, e.name, e.sources); // cursor demo ["@demo"]
 * ```
 */
export async function hostList(options: HostOptions): Promise<HostListing> {
  const listing: HostListing = { entries: [], problems: [] };
  const jn = jnCommand(options.env);
  const texts = new Map<string, unknown>();
  for (const host of EDITOR_NAMES) {
    for (const location of hostConfigs(host, options)) {
      const config = await readListed(location.path, texts, listing.problems);
      for (const [name, entry] of Object.entries(serverEntries(config, location))) {
        const runs = jnServeOf(entry, jn);
        if (runs === undefined || !isPlainObject(entry)) continue;
        const argv = argvOf(entry);
        listing.entries.push({
          host,
          scope: location.scope,
          label: location.label,
          file: location.path,
          name,
          sources: runs.sources,
          ...argv,
          current: runs.current,
          ...(entry.disabled === true || entry.enabled === false ? { disabled: true } : {}),
        });
      }
    }
  }
  return listing;
}

/** What {@linkcode hostRemove} took out (or would). */
export interface HostRemoval {
  /** The host. */
  host: EditorName;
  /** Whose files: the user's, or the project's. */
  scope: ConfigScope;
  /** The entries taken out. */
  removed: { file: string; label: string; name: string }[];
  /** The backups of the files changed. */
  backups: string[];
  /** Whether a file was written (false for `dryRun`, or with nothing to take out). */
  written: boolean;
}

/** Options of {@linkcode hostRemove}. */
export interface HostRemoveOptions extends HostOptions {
  /** The host's project files instead of the user's. */
  project?: boolean;
  /** Only the entry of this name (else every jn entry serving exactly the profile). */
  name?: string;
  /** Say what would be taken out; write nothing. */
  dryRun?: boolean;
}

/**
 * Takes out of HOST's files (user, or project with `project`) the entries
 * that run `jn serve @profile` (that profile alone), or the jn entry named
 * `name`. Nothing to take out is no error: `removed` is empty.
 */
export async function hostRemove(
  host: string,
  profileRef: string,
  options: HostRemoveOptions,
): Promise<HostRemoval> {
  const hostName = checkHost(host);
  const server = profileName(profileRef, "jn host remove");
  const scope: ConfigScope = options.project ? "project" : "user";
  const jn = jnCommand(options.env);
  const removal: HostRemoval = { host: hostName, scope, removed: [], backups: [], written: false };
  const edits = new Map<string, { file: HostFile; text: string }>();
  for (const location of hostConfigs(hostName, options)) {
    if (location.scope !== scope) continue;
    let edit = edits.get(location.path);
    if (edit === undefined) {
      const file = await readHostFile(location.path, configRoots(scope, options));
      if (file.text === undefined) continue;
      edit = { file, text: file.text };
      edits.set(location.path, edit);
    }
    const config = parseJsonc(edit.text, location.path).value;
    for (const [name, entry] of Object.entries(serverEntries(config, location))) {
      const runs = jnServeOf(entry, jn);
      const matches = options.name !== undefined
        ? name === options.name
        : runs?.sources.length === 1 && runs.sources[0] === `@${server}`;
      if (!matches) continue;
      if (runs === undefined) {
        throw new ConfigError(
          `The entry "${name}" of ${location.label} does not run jn: jn takes out only its own`,
          { path: location.path, hint: "edit the file by hand to remove it" },
        );
      }
      edit.text = removeValue(edit.text, entryPath(location, name));
      removal.removed.push({ file: location.path, label: location.label, name });
    }
  }
  if (options.dryRun) return removal;
  for (const { file, text } of edits.values()) {
    if (text === file.text) continue;
    const backup = await writeHostFile(file, text);
    if (backup) removal.backups.push(backup);
    removal.written = true;
  }
  return removal;
}

/** A file's parsed value (once per path), or undefined when missing or unreadable (said). */
async function readListed(
  path: string,
  read: Map<string, unknown>,
  problems: string[],
): Promise<unknown> {
  if (read.has(path)) return read.get(path);
  let value: unknown;
  try {
    const text = await readBoundedText(path, { maxBytes: MAX_CONFIG_BYTES });
    value = parseJsonc(text, path).value;
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) {
      problems.push(`skipped ${path}: ${(error as Error).message}`);
    }
  }
  read.set(path, value);
  return value;
}

/** An entry's program and arguments (Zed's older `{"command": {"path", "args"}}` too). */
function argvOf(entry: Record<string, unknown>): { command: string; args: string[] } {
  const nested = isPlainObject(entry.command) ? entry.command : undefined;
  const command = String(nested ? nested.path : entry.command);
  const args = nested && entry.args === undefined ? nested.args : entry.args;
  return { command, args: Array.isArray(args) ? args.map(String) : [] };
}
