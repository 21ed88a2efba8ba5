/**
 * What a launcher is: the one record (a {@linkcode LauncherDescriptor}) that
 * says everything jn knows about one kind of naked URI, `mcp+SCHEME://…` —
 * its schemes, how its LOCATION is checked, the argv (or URL) it starts, the
 * programs it runs and what to install when one is missing, how it is kept
 * away from the working directory's configuration, what it needs of the host
 * under the sandbox, its completion and its line of help. Each launcher is
 * one file beside this one (uvx.ts, npx.ts, …) listed once in registry.ts;
 * the URI parser, the launch, the session's install hint, the completion of
 * a source word and the help read them there and know no launcher by name.
 *
 * Descriptors are plain data and pure functions, importing nothing of Node's
 * (no `node:path`): the URI parser and `jn __complete source` read every one
 * of them before jn knows which it needs. What a builder needs of the
 * platform (absolute paths) it gets in its {@linkcode BuildContext}.
 *
 * Why lib/launch sits below lib/uri (scripts/import_graph.ts): the parser
 * reads the descriptors (a scheme is known, a LOCATION is valid, only as a
 * descriptor says), so the descriptors cannot read the parser. They get the
 * parser's percent-decoding and error reporting through the
 * {@linkcode LocationContext} it passes, and take the parts of a parsed URI
 * as a {@linkcode LaunchTarget}, which `NakedSource` satisfies.
 *
 * @module
 */

import type { LaunchSpec, StdioLaunch } from "./spec.ts";

/** Throws a `UriSyntaxError` at `index` of the URI being parsed (a caret goes under it). */
export type Fail = (index: number, detail: string, hint?: string) => never;

/** What a launcher's LOCATION check is given by the URI parser. */
export interface LocationContext {
  /** The scheme the URI used (`https` for `mcp+https://…`). */
  scheme: string;
  /** Offset of LOCATION's first character in the input. */
  start: number;
  /** Reports a malformed LOCATION at an offset of the input. */
  fail: Fail;
  /** `text` (at offset `start` of the input) percent-decoded; a malformed escape fails. */
  decode(text: string, start: number): string;
  /**
   * `text` decoded as one argv word of the launcher, called `what` in
   * messages: it must be non-empty, must not start with `-` (it would be read
   * as an option; `dashHint` says what to write instead) and must not hold NUL.
   */
  word(
    text: string,
    what: string,
    options?: { start?: number; dashHint?: (word: string) => string },
  ): string;
}

/** The parts of a naked URI a launch is built from (`NakedSource` has them). */
export interface LaunchTarget {
  /** The scheme the URI used. */
  launcher: string;
  /** LOCATION as the launcher's check returned it. */
  location: string;
  /** Values of `command=`, in order: appended to the server's argv. */
  command: readonly string[];
}

/** Options of `buildLaunch()` (build.ts): what the caller gives every launcher. */
export interface LaunchOptions {
  /** The caller's working directory (absolute); relative script paths resolve against it. */
  cwd: string;
  /** The `deno` executable for `mcp+deno://` servers; `"deno"` (found on PATH) by default. */
  denoPath?: string;
  /** Extra Deno permission flags for `mcp+deno://` servers, e.g. `--allow-net=api.example.com`. */
  denoPermissions?: string[];
}

/** What a launcher's argv builder is given besides the URI's parts. */
export interface BuildContext extends LaunchOptions {
  /** `path` made absolute against `cwd` and normalised; a relative `cwd` is a TypeError. */
  absolute(path: string): string;
  /** The directory of an absolute path. */
  dirname(path: string): string;
  /** The OS (`Deno.build.os`). */
  os: string;
}

/** Everything about one launcher (see the module doc). */
export interface LauncherDescriptor {
  /** The schemes after `mcp+` that name it, lowercase, in the order help lists them. */
  schemes: readonly string[];
  /** Its URI form for help, e.g. `mcp+uvx://PKG[/CMD]`. */
  usage: string;
  /** One line of help: what the form starts. */
  help: string;
  /** What a shell's completion offers for it; `mcp+SCHEME://` for each scheme when absent. */
  completions?: readonly string[];
  /**
   * It starts a whole argv: LOCATION is the program, `command=` its
   * arguments, and a command line's `-- PROGRAM ARGS…` is written as its URI
   * ({@linkcode argvUri} of registry.ts). One launcher at most says so.
   */
  argv?: true;
  /** Checks LOCATION and returns it as `NakedSource.location` documents it. */
  location(raw: string, ctx: LocationContext): string;
  /**
   * A short name of the server for lines repeated while it works (progress);
   * default: LOCATION's last path segment without an `@version`
   * ({@linkcode defaultShortName}).
   */
  short?(target: LaunchTarget): string;
  /** How the server of a URI is reached. Throws a UsageError for a launch it cannot build. */
  build(target: LaunchTarget, ctx: BuildContext): LaunchSpec;
  /** The programs it starts, by name ({@linkcode programName}): the install hint applies to these. */
  programs: readonly string[];
  /** What to do when one of `programs` is not on PATH, e.g. `install uv (https://…)`. */
  installHint?: string;
  /**
   * `launch` kept from reading the working directory's configuration when it
   * starts this launcher's program (a profile's `"command"` too); any other
   * launch comes back as it is. Applied to every stdio launch before it starts.
   */
  isolate?(launch: StdioLaunch, os: string): StdioLaunch;
  /** What it needs of the host when sandboxed (read by lib/sandbox). */
  sandbox?: SandboxNeeds;
}

/**
 * What a launcher needs of the host under the sandbox, as data: lib/sandbox
 * turns it into real paths (it knows HOME, XDG_CACHE_HOME, the OS) and mounts.
 */
export interface SandboxNeeds {
  /** An interpreter: the script its argv names, and what that script resolves from. */
  script?: ScriptRuntime;
  /**
   * A cache of the host's the launcher reads: visible read-only (a throw-away
   * one when absent); with `cachedPackages`, only where a package is looked up.
   */
  hostCache?: HostCache;
  /** A cache jn owns for this server, writable: the launcher's writes go there, never to the host's. */
  ownCache?: OwnCache;
  /**
   * The program (one of `programs`) whose argv names packages in npx's form:
   * a package already in the host's cache or in `ownCache` starts from it
   * directly, read-only, without the launcher (lib/sandbox/npx_cache.ts).
   */
  cachedPackages?: "npx";
  /**
   * Its `script.subcommand` takes Deno's permission flags (`--allow-read=…`):
   * a profile's `deno_permissions` and the sandbox's paths and network become
   * flags there (lib/sandbox/deno_permissions.ts).
   */
  denoPermissions?: boolean;
}

/** How to find an interpreter's script in an argv, and what to show of its surroundings. */
export interface ScriptRuntime {
  /** Program names ({@linkcode programName}) that are this interpreter. */
  programs: RegExp;
  /** A subcommand before its options and the script (`deno run`). */
  subcommand?: string;
  /** Files marking the script's package directory (shown whole when below a broad directory). */
  packageMarkers: readonly string[];
  /** Options that take the next argument as their value. */
  valueOptions: readonly string[];
  /** Options after which no script follows (inline code, a module by name). */
  noScript: readonly string[];
  /** Node's resolution: each `node_modules` of the script's ancestors, read-only. */
  nodeModules?: boolean;
  /** The user's site-packages (`~/.local/lib/python3.*\/site-packages`), read-only. */
  userSitePackages?: boolean;
}

/** Where the host's cache of a launcher is, relative to the server's environment. */
export interface HostCache {
  /** The variable that names it, when the server's environment sets it. */
  env: string;
  /** `env` is matched in any letter case (npm reads its variables so). */
  envAnyCase?: boolean;
  /** Else this directory in the user's cache directory (`$XDG_CACHE_HOME`, `~/.cache`, macOS `~/Library/Caches`). */
  userCache?: string;
  /** Else this directory in HOME. */
  home?: string;
}

/**
 * A cache jn owns for one sandboxed server, never used by an unsandboxed run:
 * `$XDG_CACHE_HOME/jn/sandbox/<name>-<key>/<dir>` (`~/.cache`, macOS
 * `~/Library/Caches`; `/tmp/.<dir>` without a home).
 */
export interface OwnCache {
  /** The first part of its directory's name. */
  name: string;
  /** What the key hashes: the package specs (npx) or the whole argv. */
  key: "packages" | "argv";
  /** Its subdirectory the launcher is pointed at. */
  dir: string;
  /** Variables pointing the launcher into it: name → path below `dir` (`""`: `dir` itself). */
  env: Readonly<Record<string, string>>;
  /** Variables set in the sandbox whatever the network. */
  fixedEnv?: Readonly<Record<string, string>>;
  /** Variables set when the sandbox has no network (fail at once instead of waiting). */
  offlineEnv?: Readonly<Record<string, string>>;
}

/**
 * The last path segment of a LOCATION, without an npm `@version` (a scope's
 * leading `@` stays): `@scope/pkg@1.2` → `pkg`, `biomcp-python/biomcp` →
 * `biomcp`, `./dir/server.py` → `server.py`.
 *
 * @example
 * ```ts
 * defaultShortName("@modelcontextprotocol/server-everything@latest"); // "server-everything"
 * ```
 */
export function defaultShortName(location: string): string {
  const segment = location.replace(/[\\/]+$/, "").replace(/^.*[\\/]/, "");
  const at = segment.indexOf("@", 1);
  return (at === -1 ? segment : segment.slice(0, at)) || location;
}

/** A program's name as descriptors list it: no directory, no `.exe`/`.cmd`. */
export function programName(command: string): string {
  return command.replace(/^.*[\\/]/, "").replace(/\.(exe|cmd)$/i, "");
}
