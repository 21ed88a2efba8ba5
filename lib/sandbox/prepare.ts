/**
 * lib/sandbox: confining a server: policy, Deno permissions,
 * bubblewrap/seatbelt plan, the child's environment.
 *
 * The one place where a launch is made ready to start, right before the
 * session opens it: npx and uvx are kept from reading the working
 * directory's configuration (lib/launch/isolation.ts, for a profile's
 * `npx`/`uvx` as for `mcp+npx://`; npm keeps its global config:
 * npm_config.ts), the variables passed through by name
 * are recorded, a Deno server gets its Deno permissions, and a sandboxed
 * server is wrapped in the OS's sandbox tool.
 *
 * Guarantees: a launch with a sandbox policy either comes back confined or
 * this throws (SandboxError, exit 6) — it is never returned unconfined. A
 * network host list is enforced by Deno for Deno servers; for other servers
 * jn cannot filter hosts and refuses rather than allowing every host.
 *
 * Which program runs: sandboxed, the one jn finds on its own PATH
 * (confine.ts). Unsandboxed, the server's command is found as the OS finds
 * it, on the server's PATH (the profile's `env.PATH`, else jn's) — except
 * that jn never runs a program through a relative or empty PATH entry, nor
 * (a project profile's PATH) through one inside the directory jn runs in:
 * they name files no trust covers. The server gets its PATH without them
 * (server_path.ts; so the launcher's own lookups, `#!/usr/bin/env node`,
 * skip them too), with a notice for a profile's PATH; its command, found in what is kept, is
 * started by that path, or refused (LaunchError).
 *
 * @module
 */

import { ConfigError, LaunchError, SandboxError, UsageError } from "../errors.ts";
import { isolateLauncher } from "../launch/isolation.ts";
import { localSchemes } from "../launch/registry.ts";
import type { LaunchSpec, StdioLaunch } from "../launch/spec.ts";
import type { SandboxPlan } from "./plan.ts";
import {
  type DenoPermissions,
  isDenoRun,
  policyDenoPermissions,
  withDenoPermissions,
} from "./deno_permissions.ts";
import { childEnvironment } from "./env.ts";
import { findExecutable } from "./host.ts";
import { withNpmGlobalConfig } from "./npm_config.ts";
import { resolvePolicyPaths, type SandboxPolicy } from "./policy.ts";
import { judgePath } from "./server_path.ts";

/** Options of {@linkcode prepareLaunch}. */
export interface PrepareOptions {
  /** The caller's working directory (absolute): relative sandbox paths resolve against it. */
  cwd: string;
  /** The caller's environment. */
  callerEnv: Record<string, string>;
  /** Confine the server (profile `sandbox` merged with the `--sandbox*` flags). */
  sandbox?: SandboxPolicy;
  /**
   * The sandbox paths the user typed on the command line (`--sandbox-read`,
   * `--sandbox-write`, as typed): only these may name the home directory or
   * `/`; the same path from a profile is refused (see plan.ts).
   */
  explicitPaths?: readonly string[];
  /**
   * Directories that stay read-only in the sandbox even under a writable
   * path: the profile's own directory (see lib/sandbox/plan.ts `readOnly`).
   */
  readOnly?: readonly string[];
  /** Caller variables passed through by name (`--env-passthrough`), besides the launch's own. */
  envPassthrough?: string[];
  /**
   * Directories whose files no trust covers (a project profile's: the
   * caller's directory, see `untrustedDirs`): unsandboxed, a PATH the
   * profile sets loses its entries inside them.
   */
  local?: readonly string[];
  /** Deno permissions of a `deno run` server (profile `deno_permissions`). */
  denoPermissions?: DenoPermissions;
  /** The OS; `Deno.build.os` by default. */
  os?: string;
}

/** A launch ready to start, and the sandbox plan it runs under (when sandboxed). */
export interface PreparedLaunch {
  launch: LaunchSpec;
  /** What the sandboxed server sees, and what jn left out (`notices`). */
  plan?: SandboxPlan;
  /** What jn changed of an unsandboxed launch, for the caller (the PATH entries it dropped). */
  notices?: string[];
}

/** The launch to start, with pass-through, Deno permissions and sandbox applied. */
export async function prepareLaunch(
  launch: LaunchSpec,
  options: PrepareOptions,
): Promise<LaunchSpec> {
  return (await prepareLaunchWithPlan(launch, options)).launch;
}

/** {@linkcode prepareLaunch}, also returning the sandbox plan. */
export async function prepareLaunchWithPlan(
  launch: LaunchSpec,
  options: PrepareOptions,
): Promise<PreparedLaunch> {
  if (launch.transport !== "stdio") {
    if (options.sandbox) {
      throw new UsageError(
        `Cannot sandbox "${launch.label}": it is a remote server, jn starts no process for it`,
        {
          hint: `the sandbox applies to local servers (${
            [...localSchemes(), "command"].join(", ")
          })`,
        },
      );
    }
    return { launch };
  }
  let prepared: StdioLaunch = isolateLauncher(launch);
  const passthrough = [
    ...new Set([...(launch.envPassthrough ?? []), ...(options.envPassthrough ?? [])]),
  ];
  if (passthrough.length > 0) prepared = { ...prepared, envPassthrough: passthrough };
  // npm's global config is jn's to name, from jn's own environment: a profile's `PREFIX` or
  // `PATH` would name a file of its choice (the repository's `etc/npmrc`), which npm obeys.
  prepared = withNpmGlobalConfig(prepared, options.callerEnv);

  const policy = options.sandbox &&
    resolvePolicyPaths(options.sandbox, { cwd: options.cwd, home: options.callerEnv.HOME });
  const deno = isDenoRun(prepared);
  if (options.denoPermissions && !deno) {
    throw new ConfigError(
      `Cannot apply Deno permissions to "${launch.label}": it is not a "deno run" server`,
      { hint: 'deno_permissions needs "command": "deno" with "run" as first argument' },
    );
  }
  if (deno) {
    const sets = [options.denoPermissions, policy && policyDenoPermissions(policy)];
    prepared = withDenoPermissions(prepared, sets.filter((set) => set !== undefined));
  }
  if (!policy) return withServerPath(prepared, options);
  if (Array.isArray(policy.network) && !deno) {
    throw new SandboxError(
      `Cannot sandbox "${launch.label}" with a host list: only Deno servers can be limited to hosts`,
      { hint: 'allow all hosts (--sandbox-net, "network": true) or none (the default)' },
    );
  }
  const explicit = resolvePolicyPaths(
    { network: false, read: [...(options.explicitPaths ?? [])], write: [] },
    { cwd: options.cwd, home: options.callerEnv.HOME },
  ).read;
  // The OS sandbox's code (the plan, bwrap, seatbelt) loads for a sandboxed launch only.
  const { confineLaunch } = await import("./confine.ts");
  return await confineLaunch(prepared, policy, {
    explicit,
    cwd: options.cwd,
    callerEnv: options.callerEnv,
    os: options.os,
    readOnly: options.readOnly,
  });
}

/**
 * `launch` with a PATH that names no file of the directory jn runs in, and
 * its command by its path when that took an entry away (see above).
 */
function withServerPath(launch: StdioLaunch, options: PrepareOptions): PreparedLaunch {
  if ((options.os ?? Deno.build.os) === "windows") return { launch };
  const declared = launch.env.PATH !== undefined;
  const path = childEnvironment({ callerEnv: options.callerEnv, declared: launch.env }).PATH;
  if (path === undefined) return { launch };
  const { kept, dropped } = judgePath(path, declared ? options.local ?? [] : []);
  if (dropped.length === 0) return { launch };
  // Told about what the profile wrote; a relative entry of the caller's own PATH just goes.
  const notices = declared
    ? [
      `the server's PATH leaves out ${dropped.map((dir) => JSON.stringify(dir)).join(", ")}: ` +
      "jn starts no program from a relative entry or the current directory (see docs/sandbox.md)",
    ]
    : [];
  const env = { ...launch.env, PATH: kept };
  if (launch.command.includes("/")) return { launch: { ...launch, env }, notices };
  const found = findExecutable(launch.command, kept);
  if (found) return { launch: { ...launch, command: found, env }, notices };
  throw new LaunchError(
    `Cannot start server "${launch.label}": ${launch.command} is not in a directory of its PATH that jn keeps`,
    {
      command: launch.command,
      hint: "jn never runs a program found through a relative PATH entry or one inside the " +
        "current directory (no trust covers its files): give the command's absolute path, " +
        "or put it in a directory outside",
    },
  );
}
