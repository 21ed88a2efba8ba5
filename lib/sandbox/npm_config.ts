/**
 * npm's global configuration for an npx that jn isolated from the working
 * directory. `--prefix /dev/null` (lib/launch/npx.ts) also moves npm's
 * global config file to `/dev/null/etc/npmrc`, which does not exist; that
 * file often carries what npm needs to reach its registry at all (a
 * company's `cafile`, `registry`, `proxy`). jn names it again through
 * `npm_config_globalconfig`: the same file npm reads without `--prefix`,
 * `$PREFIX/etc/npmrc`, else `<the prefix of the node on PATH>/etc/npmrc` —
 * `PREFIX` and `PATH` of jn's own environment (the caller's: `OpenOptions.env`),
 * never the server's: a profile's `"PREFIX": "."` would otherwise make jn
 * name the repository's `etc/npmrc`, whose `node-options` npm runs before the
 * server. Nothing of the working directory is read.
 *
 * @module
 */

import { dirname, join } from "node:path";
import { NPX_PREFIX } from "../launch/npx.ts";
import type { StdioLaunch } from "../launch/spec.ts";
import { findExecutable, realPath, statKind } from "./host.ts";

/** The global npmrc npm would read in `env` (PATH, PREFIX: jn's own), when it exists. */
export function npmGlobalConfig(env: Record<string, string>): string | undefined {
  let prefix = env.PREFIX;
  if (!prefix) {
    const node = findExecutable("node", env.PATH);
    const real = node && look(() => realPath(node));
    if (!real) return undefined;
    prefix = dirname(dirname(real));
  }
  const file = join(prefix, "etc", "npmrc");
  return look(() => statKind(file)) === "file" ? file : undefined;
}

/**
 * `launch` with `npm_config_globalconfig` set when it runs npm with jn's
 * `--prefix /dev/null` and does not name a global config itself; the file
 * is found in `callerEnv`, jn's own environment (see above).
 */
export function withNpmGlobalConfig(
  launch: StdioLaunch,
  callerEnv: Record<string, string>,
): StdioLaunch {
  const isolated = launch.args.some((arg, index) =>
    arg === "--prefix" && launch.args[index + 1] === NPX_PREFIX
  );
  const named = Object.keys(launch.env).some((key) =>
    key.toLowerCase() === "npm_config_globalconfig"
  );
  if (!isolated || named) return launch;
  const file = npmGlobalConfig(callerEnv);
  return file ? { ...launch, env: { ...launch.env, npm_config_globalconfig: file } } : launch;
}

function look<T>(fn: () => T): T | undefined {
  try {
    return fn();
  } catch {
    return undefined; // jn may not look there: npm goes without its global config
  }
}
