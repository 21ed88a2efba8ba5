/**
 * The sandbox a server runs in, as the user declares it: the profile field
 * `sandbox` or the `--sandbox*` flags. A policy lists what the server may do
 * beyond the default (nothing): read paths, write paths, network.
 *
 * ```jsonc
 * "sandbox": {
 *   "network": false,            // true: any host; ["api.example.com", …]: only these
 *   "read": ["~/data"],          // visible read-only (relative: to jn's working directory)
 *   "write": ["./out"]           // visible and writable
 * }
 * ```
 *
 * `"sandbox": true` is the default policy (no network, nothing declared).
 * Parsing validates the shape and throws a ConfigError naming the file;
 * {@linkcode resolvePolicyPaths} makes paths absolute (`~` is `$HOME`).
 *
 * @module
 */

import { isAbsolute, join, normalize, resolve } from "node:path";
import { ConfigError, UsageError } from "../errors.ts";
import { HOST } from "./hosts.ts";

export { parseHostList } from "./hosts.ts";

/** What a sandboxed server may do beyond running its own program. */
export interface SandboxPolicy {
  /** `false`: no network; `true`: any host; a list: only these hosts (`host` or `host:port`). */
  network: boolean | string[];
  /** Paths the server may read (everything else of the user's is hidden). */
  read: string[];
  /** Paths the server may read and write. */
  write: string[];
}

/** The policy of a bare `--sandbox` or `"sandbox": true`. */
export const DEFAULT_POLICY: Readonly<SandboxPolicy> = Object.freeze({
  network: false,
  read: [],
  write: [],
});

const KEYS = ["network", "read", "write"];

/**
 * The policy of a profile's `sandbox` field; `undefined` when it is absent or `false`.
 *
 * @example
 * ```ts
 * parseSandboxPolicy({ write: ["./out"] }, { file: "/p/_meta.json" });
 * // { network: false, read: [], write: ["./out"] }
 * ```
 */
export function parseSandboxPolicy(
  value: unknown,
  options: { file: string },
): SandboxPolicy | undefined {
  const fail = (message: string): never => {
    throw new ConfigError(`Invalid profile ${options.file}: ${message}`, {
      path: options.file,
      hint: 'e.g. "sandbox": {"network": false, "read": ["./data"], "write": ["./out"]}',
    });
  };
  if (value === undefined || value === false || value === null) return undefined;
  if (value === true) return { ...DEFAULT_POLICY, read: [], write: [] };
  if (typeof value !== "object" || Array.isArray(value)) {
    return fail(`"sandbox" must be true, false or an object`);
  }
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (!KEYS.includes(key)) fail(`"sandbox" has an unknown field "${key}"`);
  }
  const paths = (key: "read" | "write"): string[] => {
    const list = record[key] ?? [];
    if (!Array.isArray(list) || list.some((item) => typeof item !== "string" || item === "")) {
      fail(`"sandbox.${key}" must be a list of paths`);
    }
    return [...list as string[]];
  };
  const network = record.network ?? false;
  if (typeof network !== "boolean") {
    if (!Array.isArray(network) || network.some((h) => typeof h !== "string" || !HOST.test(h))) {
      fail(`"sandbox.network" must be true, false or a list of host names`);
    }
  }
  return {
    network: typeof network === "boolean" ? network : [...network as string[]],
    read: paths("read"),
    write: paths("write"),
  };
}

/**
 * Two policies as one: paths are joined, network is the wider of the two.
 * Either may be absent; the result is absent only when both are.
 */
export function mergePolicies(
  a: SandboxPolicy | undefined,
  b: SandboxPolicy | undefined,
): SandboxPolicy | undefined {
  if (!a) return b;
  if (!b) return a;
  let network: SandboxPolicy["network"];
  if (a.network === true || b.network === true) network = true;
  else if (a.network === false) network = b.network;
  else if (b.network === false) network = a.network;
  else network = [...new Set([...a.network, ...b.network])];
  return {
    network,
    read: [...new Set([...a.read, ...b.read])],
    write: [...new Set([...a.write, ...b.write])],
  };
}

/** The policy with every path absolute and normalised: `~` is `home`, relative is to `cwd`. */
export function resolvePolicyPaths(
  policy: SandboxPolicy,
  options: { cwd: string; home?: string },
): SandboxPolicy {
  const absolute = (path: string): string => {
    let full: string;
    if (path === "~" || path.startsWith("~/")) {
      if (!options.home) {
        throw new UsageError(`Cannot expand sandbox path "${path}": HOME is not set`);
      }
      full = join(options.home, path.slice(1));
    } else {
      full = isAbsolute(path) ? path : resolve(options.cwd, path);
    }
    return normalize(full).replace(/(.)\/+$/, "$1");
  };
  return {
    network: policy.network,
    read: policy.read.map(absolute),
    write: policy.write.map(absolute),
  };
}
