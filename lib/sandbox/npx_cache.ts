/**
 * npx servers under the sandbox, without running npm inside it: `npx -y PKG`
 * installs PKG into `<npm cache>/_npx/<hash>/node_modules` (libnpmexec:
 * `<hash>` is the first 16 hex digits of the SHA-512 of the package specs as
 * given, sorted, joined by newlines). When that tree holds the package, jn
 * starts the package's bin directly (`node <bin>` for a Node script) with
 * only that tree visible, read-only: offline, fast, and nothing of npm's
 * cache writable.
 *
 * Only registry specs are recognised (`pkg`, `pkg@1.2.3`, `@scope/pkg@^1`,
 * `pkg@latest`); a git URL, a tarball, a directory or an alias is left to npx.
 * A cached name-only or tag spec runs as cached: jn does not ask the registry
 * for a newer version (npx would).
 *
 * A cache is untrusted (jn's own cache for a server was writable by that
 * server during its `--sandbox-net` run): an install is used only when its
 * `node_modules` is a real directory exactly at `<real cache>/_npx/<hash>`,
 * and its bin only when that really lies inside it.
 *
 * @module
 */

import { join, normalize } from "node:path";
import { digestHex } from "../text/digest.ts";
import type { StdioLaunch } from "../launch/spec.ts";
import { type HostView, peek, peekReal, within } from "./host_view.ts";

/** An npx argv, understood. */
export interface NpxArgs {
  /** The package specs to install (`-p`/`--package`, else the first positional). */
  packages: string[];
  /** The bin to run when packages were named with `-p`; else the package's own bin. */
  command?: string;
  /** The arguments after the package (or command). */
  args: string[];
}

/** A package found in an npx cache, ready to start. */
export interface CachedNpx {
  /** `<cache>/_npx/<hash>/node_modules`: what the server may read. */
  modules: string;
  /** The bin file to run. */
  bin: string;
  /** Whether the bin is a Node.js script (run as `node <bin>`). */
  node: boolean;
}

const REGISTRY_SPEC = /^((?:@[a-z0-9][\w.~-]*\/)?[a-z0-9][\w.~-]*)(?:@([^/:\\]+))?$/i;

/**
 * The npx argv understood, or `undefined` for one jn does not follow (an
 * option it does not know, `--call`, a package that is not a registry spec).
 *
 * @example
 * ```ts
 * parseNpxArgs(["-y", "@scope/pkg@1", "--stdio"]);
 * // { packages: ["@scope/pkg@1"], args: ["--stdio"] }
 * ```
 */
export function parseNpxArgs(args: readonly string[]): NpxArgs | undefined {
  const packages: string[] = [];
  let index = 0;
  while (index < args.length && args[index].startsWith("-")) {
    const arg = args[index];
    if (arg === "--") {
      index++;
      break;
    }
    if (["-y", "--yes", "-q", "--quiet", "--silent"].includes(arg) || arg.startsWith("--prefix=")) {
      index++;
    } else if (arg === "--prefix") {
      // Where npm looks for a project (jn passes an empty one): not where npx caches.
      if (args[index + 1] === undefined) return undefined;
      index += 2;
    } else if (arg === "-p" || arg === "--package") {
      if (args[index + 1] === undefined) return undefined;
      packages.push(args[index + 1]);
      index += 2;
    } else if (arg.startsWith("--package=")) {
      packages.push(arg.slice("--package=".length));
      index++;
    } else {
      return undefined;
    }
  }
  const first = args[index];
  if (first === undefined) return undefined;
  const result: NpxArgs = packages.length > 0
    ? { packages, command: first, args: args.slice(index + 1) }
    : { packages: [first], args: args.slice(index + 1) };
  return result.packages.every((spec) => REGISTRY_SPEC.test(spec)) ? result : undefined;
}

/** The directory name npx gives the install of `packages` under `<cache>/_npx/`. */
export async function npxHash(packages: readonly string[]): Promise<string> {
  const sorted = [...packages].sort((a, b) => a.localeCompare(b, "en"));
  return (await digestHex(sorted.join("\n"), "SHA-512")).slice(0, 16);
}

/** The package name of a registry spec (`@scope/pkg@^1` → `@scope/pkg`). */
export function packageName(spec: string): string {
  return REGISTRY_SPEC.exec(spec)?.[1] ?? spec;
}

/**
 * The package of `npx` as installed in one of the npm caches `caches` (the
 * first that has it), or `undefined` when none has a complete install.
 */
export async function findCachedNpx(
  npx: NpxArgs,
  caches: readonly string[],
  host: HostView,
): Promise<CachedNpx | undefined> {
  const hash = await npxHash(npx.packages);
  for (const cache of caches) {
    // A cache can be written by a server (jn's own, by its --sandbox-net run): everything in it
    // is taken only where it really is, never through a symlink that leads elsewhere.
    const root = peekReal(host, cache);
    if (!root) continue;
    const tree = join(root, "_npx", hash);
    const modules = join(tree, "node_modules");
    if (peekReal(host, modules) !== modules || peek(host, modules) !== "dir") continue;
    // npx records the specs once the install is complete: a half-done one has no record.
    const record = readJson(host, join(tree, "package.json")) as
      | { _npx?: { packages?: unknown } }
      | undefined;
    const recorded = record?._npx?.packages;
    if (!Array.isArray(recorded) || await npxHash(recorded.map(String)) !== hash) continue;
    const named = npx.command === undefined
      ? manifestBin(join(modules, packageName(npx.packages[0])), host)
      : join(modules, ".bin", npx.command);
    const bin = named && peekReal(host, named);
    if (!bin || !within(bin, modules) || peek(host, bin) !== "file") continue;
    const head = host.readHead?.(bin, 256)?.split("\n", 1)[0] ?? "";
    const node = head.startsWith("#!") ? /\bnode\b/.test(head) : /\.[cm]?js$/.test(bin);
    return { modules, bin, node };
  }
  return undefined;
}

/**
 * The launch that starts a cached npx package directly: `node <bin> ARGS…`
 * (or the bin itself when it is not a Node script), with the install's
 * `.bin` directory first on PATH as npx would have it.
 */
export function cachedNpxLaunch(
  launch: StdioLaunch,
  npx: NpxArgs,
  cached: CachedNpx,
  path: string | undefined,
): StdioLaunch {
  const bins = join(cached.modules, ".bin");
  return {
    ...launch,
    command: cached.node ? "node" : cached.bin,
    args: cached.node ? [cached.bin, ...npx.args] : [...npx.args],
    env: { ...launch.env, PATH: path ? `${bins}:${path}` : bins },
  };
}

/** The bin npx runs for a package: its only bin, or the one named like it (libnpmexec's rule). */
function manifestBin(packageDir: string, host: HostView): string | undefined {
  const manifest = readJson(host, join(packageDir, "package.json")) as
    | { name?: unknown; bin?: unknown }
    | undefined;
  if (!manifest || typeof manifest.name !== "string") return undefined;
  const unscoped = manifest.name.replace(/^@[^/]+\//, "");
  const bins: Record<string, unknown> = typeof manifest.bin === "string"
    ? { [unscoped]: manifest.bin }
    : (manifest.bin as Record<string, unknown> | undefined) ?? {};
  const values = new Set(Object.values(bins));
  const relative = values.size === 1 ? [...values][0] : bins[unscoped];
  return typeof relative === "string" ? normalize(join(packageDir, relative)) : undefined;
}

function readJson(host: HostView, path: string): unknown {
  // A regular file only (a FIFO would block jn).
  if (peek(host, path) !== "file") return undefined;
  const text = host.readHead?.(path, 4 * 1024 * 1024);
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
