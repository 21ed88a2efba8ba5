/**
 * MCP hosts' config entries that run `jn serve @profile` — the reverse of
 * `jn profile import`, over the same path table
 * (lib/profile/edit/import_paths.ts): `hostAdd` writes one, `hostRemove`
 * takes jn's out, `hostList` says which entries of every host run jn
 * (those two in host_list.ts).
 *
 * Policy (for the CLI and programs alike):
 * - Only a profile is added (`@name`: what it serves is pinned and
 *   curated; a naked URI is not), and only one that exists. A project
 *   profile goes only into the host's project file (`project`): a user-wide
 *   entry runs jn from any directory, where the project's profile is not
 *   found; and only once trusted, since the host would launch it.
 * - The user's file by default; `project` writes the host's project file
 *   (none for Claude Desktop and Windsurf).
 * - The entry's program is this jn by an absolute path ({@linkcode jnCommand}).
 * - An entry of the same name that does not run jn is replaced only with
 *   `force`; one that runs jn is brought up to date. Adding what is already
 *   there changes nothing (no write, no backup): `hostAdd` is idempotent.
 * - The files are edited as lib/profile/edit/host_write.ts guarantees: read
 *   bounded, written only where the host keeps them (a symlink elsewhere is
 *   refused), comments and other entries kept, a backup first. No secret is
 *   ever written: a profile's `${VAR}`s are read by jn from the environment
 *   the host gives it, and the result names them so the user can pass them.
 *
 * @module
 */

import { isDeepStrictEqual } from "node:util";
import { ConfigError, UsageError } from "../errors.ts";
import { isPlainObject } from "../profile/fields.ts";
import { type Argv, entryPath, hostEntry, jnServeOf, snippet } from "../profile/edit/host_entry.ts";
import { readHostFile, writeHostFile } from "../profile/edit/host_write.ts";
import {
  type ConfigScope,
  EDITOR_NAMES,
  type EditorName,
  hostTarget,
} from "../profile/edit/import_paths.ts";
import { setValue, valueAt } from "../profile/edit/jsonc_edit.ts";
import { homeDir, SERVER_NAME } from "../profile/layers.ts";
import { loadProfile } from "../profile/resolve.ts";
import { isCompiled, selfCommand } from "../profile/self_command.ts";
import { assertTrusted } from "../profile/trust.ts";
import type { Profile } from "../profile/types.ts";
import { findExecutable } from "../sandbox/host.ts";
import { closest } from "../text/suggest.ts";
import { parseSource } from "../uri/parse.ts";

/** Where and how jn finds the hosts' files. */
export interface HostOptions {
  /** The project directory (project files, project profiles). */
  cwd: string;
  /** The environment (HOME, the config directories, PATH for `jn`). */
  env: Record<string, string>;
}

/** Options of {@linkcode hostAdd}. */
export interface HostAddOptions extends HostOptions {
  /** Write the host's project file instead of the user's. */
  project?: boolean;
  /** The entry's name (default: the profile's). */
  name?: string;
  /** Replace an entry of that name that does not run jn. */
  force?: boolean;
  /** Say what would be written; write nothing. */
  dryRun?: boolean;
}

/** What {@linkcode hostAdd} did (or would do). */
export interface HostChange {
  /** The host (`claude` is Claude Desktop). */
  host: EditorName;
  /** Whose file: the user's, or the project's. */
  scope: ConfigScope;
  /** The file, as the host names it, and what it is (`Cursor (user)`). */
  file: string;
  /** What the file is, for messages. */
  label: string;
  /** The entry's name in the file. */
  name: string;
  /** The entry written. */
  entry: Record<string, unknown>;
  /** The entry where the file holds it, as a JSON document of its own (what `--dry-run` shows). */
  snippet: unknown;
  /** `added`, `updated` (a jn entry brought up to date or a replaced one), `unchanged`. */
  outcome: "added" | "updated" | "unchanged";
  /** Written (false for `dryRun` and `unchanged`). */
  written: boolean;
  /** The backup of the file before the change. */
  backup?: string;
  /** What the user should know (variables the host must pass). */
  notes: string[];
}

/**
 * The program that runs this jn, as a host's entry should start it: the
 * compiled binary itself; else `jn` found on PATH (an absolute path); else
 * `deno run <permissions> /abs/main.ts` from source (or the bundle).
 */
export function jnCommand(env: Record<string, string>): Argv {
  if (isCompiled()) return { command: Deno.execPath(), args: [] };
  const onPath = findExecutable("jn", env.PATH);
  if (onPath !== undefined) return { command: onPath, args: [] };
  const self = selfCommand([]);
  return { command: self.command, args: self.args };
}

/** Checks a host name: one of {@linkcode EDITOR_NAMES}. */
export function checkHost(host: string): EditorName {
  if ((EDITOR_NAMES as readonly string[]).includes(host)) return host as EditorName;
  const near = closest(host, EDITOR_NAMES);
  throw new UsageError(`Unknown host "${host}"`, {
    hint: `${near ? `did you mean ${near}? ` : ""}hosts: ${EDITOR_NAMES.join(", ")}`,
  });
}

/** The profile name of `@name` (no tool, no query), or a UsageError. */
export function profileName(text: string, verb: string): string {
  const source = (() => {
    try {
      return parseSource(text);
    } catch {
      return undefined;
    }
  })();
  if (source?.kind !== "profile" || source.operation.kind !== "none" || source.args.length > 0) {
    throw new UsageError(`${verb} takes a profile (@name), not "${text}"`, {
      hint: "save a server as a profile first: jn profile create NAME --from URI",
    });
  }
  return source.server;
}

/** The directories a user's (or a project's) host config may resolve into. */
export function configRoots(scope: ConfigScope, options: HostOptions): string[] {
  if (scope === "project") return [options.cwd];
  const env = options.env;
  return [homeDir(env), env.XDG_CONFIG_HOME, env.FLATPAK_XDG_CONFIG_HOME, env.APPDATA]
    .filter((dir): dir is string => typeof dir === "string" && dir.startsWith("/"));
}

/**
 * Writes HOST's config entry that runs `jn serve @profile` (see the
 * module's policy).
 *
 * @example
 * ```ts ignore
 * import { hostAdd } from "@jn/jn";
 *
 * const change = await hostAdd("cursor", "@demo", {
 *   cwd: Deno.cwd(),
 *   env: Deno.env.toObject(),
 *   dryRun: true,
 * });
 * console.log(change.file, change.snippet); // ~/.cursor/mcp.json {mcpServers: {demo: {…}}}
 * ```
 */
export async function hostAdd(
  host: string,
  profileRef: string,
  options: HostAddOptions,
): Promise<HostChange> {
  const name = checkHost(host);
  const server = profileName(profileRef, "jn host add");
  const scope: ConfigScope = options.project ? "project" : "user";
  const location = hostTarget(name, scope, options);
  if (location === undefined) {
    const user = hostTarget(name, "user", options);
    throw new UsageError(
      scope === "project"
        ? `${user?.label ?? name} has no project config`
        : `Cannot find ${name}'s user config: HOME is not set`,
      { hint: scope === "project" ? "leave out --project" : "set HOME" },
    );
  }
  const profile = await loadProfile(server, { ...options, lenient: true });
  if (profile.layer === "project") {
    if (scope === "user") {
      const project = hostTarget(name, "project", options);
      throw new ConfigError(
        `@${server} is a project profile: a user-wide entry runs jn serve from any directory, ` +
          `where @${server} is not found`,
        {
          hint: project
            ? `add --project to write ${project.path} instead`
            : `${location.label} has no project config: make it a user profile (copy ${profile.dir} ` +
              `into ~/.local/jn/profiles/mcp/)`,
        },
      );
    }
    await assertTrusted(profile, options.env);
  }
  const key = options.name ?? server;
  if (!SERVER_NAME.test(key)) {
    throw new UsageError(`Invalid entry name "${key}"`, {
      hint: "letters, digits, '.', '_' and '-'",
    });
  }
  const argv = jnCommand(options.env);
  const entry = hostEntry(name, {
    command: argv.command,
    args: [...argv.args, "serve", `@${server}`],
  });
  const path = entryPath(location, key);
  const file = await readHostFile(location.path, configRoots(scope, options));
  const before = file.text === undefined ? undefined : valueAt(file.text, path);
  const change: HostChange = {
    host: name,
    scope,
    file: location.path,
    label: location.label,
    name: key,
    entry,
    snippet: snippet(path, entry),
    outcome: before === undefined ? "added" : "updated",
    written: false,
    notes: variableNotes(profile, name),
  };
  // Through JSON: the parser's objects have no prototype, which a strict comparison counts.
  const same = before !== undefined && isDeepStrictEqual(JSON.parse(JSON.stringify(before)), entry);
  if (same) return { ...change, outcome: "unchanged" };
  if (before !== undefined && jnServeOf(before, argv) === undefined && !options.force) {
    throw new ConfigError(
      `${location.label} already has an entry "${key}" that does not run jn: ${
        describeEntry(before)
      }`,
      {
        path: location.path,
        hint:
          `--force replaces it (the file is backed up first), or --name NAME adds jn's beside it`,
      },
    );
  }
  if (options.dryRun) return change;
  const text = setValue(file.text?.trim() ? file.text : "", path, entry, { first: true });
  const backup = await writeHostFile(file, text.endsWith("\n") ? text : `${text}\n`);
  return { ...change, written: true, ...(backup ? { backup } : {}) };
}

/**
 * What an entry runs, in a few words: its program only (its arguments,
 * environment and URL may hold credentials). Untrusted text: the caller
 * makes it visible.
 */
function describeEntry(entry: unknown): string {
  if (!isPlainObject(entry)) return "it is not an object";
  const command = isPlainObject(entry.command) ? entry.command.path : entry.command;
  if (typeof command === "string") return `it runs "${command.slice(0, 200)}"`;
  return entry.url !== undefined || entry.serverUrl !== undefined
    ? "it reaches a remote server"
    : "it runs nothing jn knows";
}

/** The variables a profile reads, and how the host must pass them. */
function variableNotes(profile: Profile, host: EditorName): string[] {
  const written = JSON.stringify([
    profile.rawMeta,
    ...profile.tools.map((tool) => [tool.fileDef, tool.inlineDef]),
  ]);
  const names = [
    ...new Set([...written.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1])),
  ].sort();
  if (names.length === 0) return [];
  return [
    `@${profile.name} reads ${names.map((n) => `$${n}`).join(", ")}: ${host} starts jn with ` +
    `its own environment, so set ${names.length === 1 ? "it" : "them"} there (the entry's ` +
    `"env", or the environment the host starts in); jn writes no value into the host's config`,
  ];
}
