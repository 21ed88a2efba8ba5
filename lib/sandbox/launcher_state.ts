/**
 * Launcher caches under the sandbox. A package cache is code that later runs
 * unconfined (npx, uvx, and the Deno cache jn itself runs from), so a
 * sandboxed server never gets the host's cache writable:
 *
 * - npx: a package already in npm's cache (`~/.npm/_npx/<hash>`, or jn's own
 *   cache for this server) starts directly from it, read-only, without npm
 *   (npx_cache.ts). Otherwise npx needs the network: with it, npx runs in
 *   the sandbox with `npm_config_cache` set to a cache jn owns for this server
 *   (later runs start from there); without it, jn fails at once, saying how
 *   to fetch the package.
 * - uvx/uv: uv's cache, tool and Python directories point into a cache jn
 *   owns for this server (`UV_CACHE_DIR`, `UV_TOOL_DIR`, `UV_TOOL_BIN_DIR`,
 *   `UV_PYTHON_INSTALL_DIR`); `UV_OFFLINE=1` without network, so uv fails at
 *   once instead of waiting on a network it does not have.
 * - deno: the Deno cache (`DENO_DIR`) read-only; an empty throw-away one when
 *   the host has none.
 *
 * jn's own caches live in `$XDG_CACHE_HOME/jn/sandbox/<launcher>-<key>/`
 * (`~/.cache/…`; macOS `~/Library/Caches/…`), keyed by the package specs
 * (npx) or the whole argv (uvx), never used by an unsandboxed run or by
 * another server.
 *
 * @module
 */

import { createHash } from "node:crypto";
import { basename, dirname, join } from "node:path";
import { SandboxError } from "../errors.ts";
import type { StdioLaunch } from "../launch/spec.ts";
import { NPX_PREFIX } from "../launch/isolation.ts";
import { type HostView, peek } from "./host_view.ts";
import { cachedNpxLaunch, findCachedNpx, type NpxArgs, parseNpxArgs } from "./npx_cache.ts";

/** What a launcher needs of the host beyond the server's own files. */
export interface LauncherMounts {
  /** Visible read-only. */
  read: string[];
  /** Visible and writable (jn's own caches for this server). */
  write: string[];
  /** Linux: empty writable directories that vanish with the server. */
  scratch: string[];
  /**
   * Package trees the launcher runs from (npx: `<cache>/_npx/<hash>`, by its
   * real path): nothing in one may lead out of it, nothing above it is given.
   */
  trees?: string[];
}

/** The launch, adapted to run sandboxed, and what it needs to see. */
export interface AdaptedLaunch {
  launch: StdioLaunch;
  mounts: LauncherMounts;
}

/** Options of {@linkcode adaptLauncher}. */
export interface AdaptOptions {
  /** Whether the sandbox has network. */
  network: boolean;
  /** The caller's environment: where jn's own caches live. */
  callerEnv: Record<string, string>;
  /**
   * The host, as jn's own environment sees it (`host.env`: HOME,
   * npm_config_cache, DENO_DIR): the caches jn gives are the user's, never
   * ones a profile's variables name.
   */
  host: HostView;
  /** The server's PATH (its profile's, else jn's): a cached package's bins go first on it. */
  serverPath?: string;
  /**
   * The user's npm global config (npm_config.ts, from jn's environment), for
   * the unsandboxed fetch a hint suggests: never one a profile names.
   */
  npmGlobalConfig?: string;
}

/**
 * The launch made ready for the sandbox as far as its launcher is concerned.
 * Throws a SandboxError for an npx package that is not cached when the
 * sandbox has no network.
 */
export function adaptLauncher(launch: StdioLaunch, options: AdaptOptions): AdaptedLaunch {
  const name = basename(launch.command).replace(/\.(exe|cmd)$/i, "");
  const none: LauncherMounts = { read: [], write: [], scratch: [] };
  switch (name) {
    case "npx":
      return adaptNpx(launch, options);
    case "npm":
      return npmInSandbox(launch, options, ["npm", ...launch.args]);
    case "uvx":
    case "uv":
      return adaptUv(launch, options);
    case "deno": {
      const dir = denoDir(options.host);
      if (!dir) return { launch, mounts: none };
      const present = peek(options.host, dir) === "dir";
      const mounts = { ...none, [present ? "read" : "scratch"]: [dir] };
      return { launch, mounts };
    }
    default:
      return { launch, mounts: none };
  }
}

/** The npm cache of the user's npx (jn's environment: `host.env`). */
export function npmCache(host: HostView): string | undefined {
  const env = host.env;
  const configured = Object.entries(env).find(([key]) => key.toLowerCase() === "npm_config_cache");
  if (configured?.[1]) return configured[1];
  return env.HOME ? join(env.HOME, ".npm") : undefined;
}

/** The one-time, unsandboxed fetch that puts an npx package where jn looks for it. */
export function npxFetchCommand(npx: NpxArgs, cache: string, globalConfig?: string): string {
  // --ignore-scripts: no install script runs; /bin/true by its path, through /bin/sh by its
  // path: no bin of the package runs either (npm puts the package's bins first on PATH).
  // --prefix: the .npmrc and node_modules of the directory it is typed in play no part.
  // (--prefix also moves npm's global config: it is named again, as for the server.)
  const packages = npx.packages.map((spec) => `--package=${shellWord(spec)}`).join(" ");
  const global = globalConfig ? ` --globalconfig ${shellWord(globalConfig)}` : "";
  return `npm exec --yes --ignore-scripts --script-shell=/bin/sh --prefix ${NPX_PREFIX}${global} ` +
    `--cache ${shellWord(cache)} ${packages} -- /bin/true`;
}

function adaptNpx(launch: StdioLaunch, options: AdaptOptions): AdaptedLaunch {
  const npx = parseNpxArgs(launch.args);
  if (!npx) return npmInSandbox(launch, options, ["npx", ...launch.args]);
  const own = jnCache(options, "npx", npx.packages);
  const hostCache = npmCache(options.host);
  const caches = [hostCache, own && join(own, "npm")].filter((dir) => dir !== undefined);
  const cached = findCachedNpx(npx, caches, options.host);
  if (cached) {
    return {
      launch: cachedNpxLaunch(launch, npx, cached, options.serverPath),
      mounts: { read: [cached.modules], write: [], scratch: [], trees: [dirname(cached.modules)] },
    };
  }
  if (!options.network) {
    const specs = npx.packages.join(" ");
    const fetch = hostCache
      ? `, or fetch it once, unsandboxed (no package code runs): ${
        npxFetchCommand(npx, hostCache, options.npmGlobalConfig)
      }`
      : "";
    throw new SandboxError(
      `Cannot sandbox "${launch.label}": ${specs} is not in npm's cache and the sandbox has no network to download it`,
      { hint: `let npx download it inside the sandbox with --sandbox-net${fetch}` },
    );
  }
  return npmInSandbox(launch, options, npx.packages);
}

/** npm itself in the sandbox, with a cache jn owns for this server. */
function npmInSandbox(
  launch: StdioLaunch,
  options: AdaptOptions,
  key: string[],
): AdaptedLaunch {
  const own = jnCache(options, "npx", key);
  const cache = own ? join(own, "npm") : "/tmp/.npm";
  const env: Record<string, string> = {
    ...launch.env,
    npm_config_cache: cache,
    npm_config_update_notifier: "false",
  };
  // Offline, npm answers from its cache or fails at once, instead of retrying a network it lacks.
  if (!options.network) env.npm_config_offline = "true";
  return {
    launch: { ...launch, env },
    mounts: { read: [], write: own ? [cache] : [], scratch: [] },
  };
}

function adaptUv(launch: StdioLaunch, options: AdaptOptions): AdaptedLaunch {
  const own = jnCache(options, "uv", [basename(launch.command), ...launch.args]);
  const root = own ? join(own, "uv") : "/tmp/.uv";
  const env: Record<string, string> = {
    ...launch.env,
    UV_CACHE_DIR: join(root, "cache"),
    UV_TOOL_DIR: join(root, "tools"),
    UV_TOOL_BIN_DIR: join(root, "bin"),
    UV_PYTHON_INSTALL_DIR: join(root, "python"),
  };
  if (!options.network) env.UV_OFFLINE = "1";
  return {
    launch: { ...launch, env },
    mounts: { read: [], write: own ? [root] : [], scratch: [] },
  };
}

/** The user's Deno cache (jn's environment: `host.env`). */
function denoDir(host: HostView): string | undefined {
  const env = host.env;
  if (env.DENO_DIR) return env.DENO_DIR;
  if (!env.HOME) return undefined;
  if (host.os === "darwin") return join(env.HOME, "Library", "Caches", "deno");
  return join(env.XDG_CACHE_HOME || join(env.HOME, ".cache"), "deno");
}

/**
 * jn's own cache directory for one sandboxed server (not created here), or
 * `undefined` without a home to put it in.
 */
export function jnCache(
  options: { callerEnv: Record<string, string>; host: { os: string } },
  launcher: string,
  key: readonly string[],
): string | undefined {
  const { HOME: home, XDG_CACHE_HOME: xdg } = options.callerEnv;
  const base = xdg ||
    (home &&
      (options.host.os === "darwin" ? join(home, "Library", "Caches") : join(home, ".cache")));
  if (!base) return undefined;
  const digest = createHash("sha256").update(JSON.stringify(key)).digest("hex").slice(0, 16);
  return join(base, "jn", "sandbox", `${launcher}-${digest}`);
}

function shellWord(word: string): string {
  return /^[\w@%+=:,./^~-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}
