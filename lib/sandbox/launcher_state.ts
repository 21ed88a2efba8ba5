/**
 * Launcher caches under the sandbox, as each launcher's descriptor declares
 * them (`sandbox` of lib/launch/*.ts; the launcher is the one whose
 * `programs` include the launch's program, so a profile's `npx` is treated
 * as `mcp+npx://`). A package cache is code that later runs unconfined (npx,
 * uvx, and the Deno cache jn itself runs from), so a sandboxed server never
 * gets the host's cache writable:
 *
 * - `cachedPackages` (npx): a package already in the host's cache
 *   (`hostCache`: `~/.npm/_npx/<hash>`) or in jn's own cache for this server
 *   starts directly from it, read-only, without npm (npx_cache.ts).
 *   Otherwise it needs the network: with it, the launcher runs in the
 *   sandbox with jn's own cache (later runs start from there); without it,
 *   jn fails at once, saying how to fetch the package.
 * - `ownCache` (npx, uvx): the launcher's variables point into a cache jn
 *   owns for this server, writable; `offlineEnv` without network, so the
 *   launcher fails at once instead of waiting on a network it does not have.
 * - `hostCache` alone (deno: `DENO_DIR`): the host's cache read-only; an
 *   empty throw-away one when the host has none.
 *
 * jn's own caches live in `$XDG_CACHE_HOME/jn/sandbox/<name>-<key>/`
 * (`~/.cache/…`; macOS `~/Library/Caches/…`), keyed by the package specs or
 * the whole argv (`ownCache.key`), never used by an unsandboxed run or by
 * another server. Every path comes from jn's own environment, never from a
 * profile's.
 *
 * @module
 */

import { dirname, join } from "node:path";
import { SandboxError } from "../errors.ts";
import {
  type HostCache,
  type OwnCache,
  programName,
  type SandboxNeeds,
} from "../launch/descriptor.ts";
import { NPX_PREFIX } from "../launch/npx.ts";
import { launcherOfProgram } from "../launch/registry.ts";
import type { StdioLaunch } from "../launch/spec.ts";
import { digestHex } from "../text/digest.ts";
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
 * The launch made ready for the sandbox as far as its launcher is concerned:
 * the launcher whose `programs` include the launch's program says what it
 * needs (its descriptor's `sandbox`, lib/launch/). Throws a SandboxError for
 * an npx package that is not cached when the sandbox has no network.
 */
export async function adaptLauncher(
  launch: StdioLaunch,
  options: AdaptOptions,
): Promise<AdaptedLaunch> {
  const needs = launcherOfProgram(launch.command)?.sandbox;
  const argv = [programName(launch.command), ...launch.args];
  if (needs?.cachedPackages === programName(launch.command)) {
    const npx = parseNpxArgs(launch.args);
    const key = needs.ownCache?.key === "packages" ? npx?.packages : argv;
    if (npx) return await adaptNpx(launch, npx, needs, options, key ?? argv);
  }
  if (needs?.ownCache) return await withOwnCache(launch, options, needs.ownCache, argv);
  const none: LauncherMounts = { read: [], write: [], scratch: [] };
  const dir = needs?.hostCache && hostCache(needs.hostCache, options.host);
  if (!dir) return { launch, mounts: none };
  const present = peek(options.host, dir) === "dir";
  return { launch, mounts: { ...none, [present ? "read" : "scratch"]: [dir] } };
}

/**
 * Where the host's cache of a launcher is (`sandbox.hostCache`), as jn's own
 * environment (`host.env`) names it: never one a profile's variables name.
 */
export function hostCache(where: HostCache, host: HostView): string | undefined {
  const env = host.env;
  const wanted = where.envAnyCase ? where.env.toLowerCase() : where.env;
  const named = Object.entries(env).find(([name]) =>
    (where.envAnyCase ? name.toLowerCase() : name) === wanted
  );
  if (named?.[1]) return named[1];
  if (!env.HOME) return undefined;
  if (where.userCache !== undefined) {
    const base = host.os === "darwin"
      ? join(env.HOME, "Library", "Caches")
      : env.XDG_CACHE_HOME || join(env.HOME, ".cache");
    return join(base, where.userCache);
  }
  return where.home === undefined ? undefined : join(env.HOME, where.home);
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

/** npx: a cached package starts from its cache; else npm runs with jn's own cache, or jn refuses. */
async function adaptNpx(
  launch: StdioLaunch,
  npx: NpxArgs,
  needs: SandboxNeeds,
  options: AdaptOptions,
  key: readonly string[],
): Promise<AdaptedLaunch> {
  const own = needs.ownCache && await jnCache(options, needs.ownCache.name, key);
  const host = needs.hostCache && hostCache(needs.hostCache, options.host);
  const caches = [host, own && join(own, needs.ownCache!.dir)].filter((dir) => dir !== undefined);
  const cached = await findCachedNpx(npx, caches, options.host);
  if (cached) {
    return {
      launch: cachedNpxLaunch(launch, npx, cached, options.serverPath),
      mounts: { read: [cached.modules], write: [], scratch: [], trees: [dirname(cached.modules)] },
    };
  }
  if (!options.network) {
    const specs = npx.packages.join(" ");
    const fetch = host
      ? `, or fetch it once, unsandboxed (no package code runs): ${
        npxFetchCommand(npx, host, options.npmGlobalConfig)
      }`
      : "";
    throw new SandboxError(
      `Cannot sandbox "${launch.label}": ${specs} is not in npm's cache and the sandbox has no network to download it`,
      { hint: `let npx download it inside the sandbox with --sandbox-net${fetch}` },
    );
  }
  if (!needs.ownCache) return { launch, mounts: { read: [], write: [], scratch: [] } };
  return await withOwnCache(launch, options, needs.ownCache, key);
}

/**
 * The launcher pointed into a cache jn owns for this server (`sandbox.ownCache`),
 * keyed by `key`: its variables set, the cache writable; `/tmp/.<dir>`, which
 * lives as long as the sandbox, without a home for jn's caches.
 */
async function withOwnCache(
  launch: StdioLaunch,
  options: AdaptOptions,
  cache: OwnCache,
  key: readonly string[],
): Promise<AdaptedLaunch> {
  const own = await jnCache(options, cache.name, key);
  const root = own ? join(own, cache.dir) : `/tmp/.${cache.dir}`;
  const env: Record<string, string> = { ...launch.env };
  for (const [name, sub] of Object.entries(cache.env)) env[name] = sub ? join(root, sub) : root;
  // Offline, the launcher answers from its cache or fails at once, instead of waiting on a network.
  Object.assign(env, cache.fixedEnv, options.network ? {} : cache.offlineEnv);
  return {
    launch: { ...launch, env },
    mounts: { read: [], write: own ? [root] : [], scratch: [] },
  };
}

/**
 * jn's own cache directory for one sandboxed server (not created here), or
 * `undefined` without a home to put it in.
 */
export async function jnCache(
  options: { callerEnv: Record<string, string>; host: { os: string } },
  launcher: string,
  key: readonly string[],
): Promise<string | undefined> {
  const { HOME: home, XDG_CACHE_HOME: xdg } = options.callerEnv;
  const base = xdg ||
    (home &&
      (options.host.os === "darwin" ? join(home, "Library", "Caches") : join(home, ".cache")));
  if (!base) return undefined;
  const digest = (await digestHex(JSON.stringify(key))).slice(0, 16);
  return join(base, "jn", "sandbox", `${launcher}-${digest}`);
}

function shellWord(word: string): string {
  return /^[\w@%+=:,./^~-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}
