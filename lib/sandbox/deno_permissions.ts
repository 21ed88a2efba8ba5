/**
 * Deno permissions for servers that are Deno programs (`mcp+deno://`, or a
 * profile whose `command` is `deno` with `run` as first argument): the
 * profile field `deno_permissions` and the sandbox policy become `--allow-*`
 * flags of that `deno run`, merged with the flags already there.
 *
 * ```jsonc
 * "deno_permissions": { "net": ["api.example.com"], "env": ["API_KEY"], "read": ["./data"] }
 * ```
 *
 * Guarantees: the server runs with `--no-prompt` (a permission it lacks is an
 * error, never a prompt on the protocol's stdin); for each permission the
 * result is one flag: the bare flag if any source grants everything, else
 * the union of the lists (Deno does not merge `--allow-read=a --allow-read`
 * the way one would expect: the later one wins).
 *
 * @module
 */

import { ConfigError } from "../errors.ts";
import type { ScriptRuntime } from "../launch/descriptor.ts";
import { launcherOfProgram } from "../launch/registry.ts";
import type { StdioLaunch } from "../launch/spec.ts";
import { PERMISSION_NAMES, type PermissionName, type PermissionSet } from "./permissions.ts";
import type { SandboxPolicy } from "./policy.ts";

/** The `deno_permissions` of a profile: per permission, everything (`true`) or a list. */
export type DenoPermissions = PermissionSet;

/** The `deno_permissions` profile field, validated; `undefined` when absent. */
export function parseDenoPermissions(
  value: unknown,
  options: { file: string },
): DenoPermissions | undefined {
  const fail = (message: string): never => {
    throw new ConfigError(`Invalid profile ${options.file}: ${message}`, {
      path: options.file,
      hint: 'e.g. "deno_permissions": {"net": ["api.example.com"], "env": ["API_KEY"]}',
    });
  };
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "object" || Array.isArray(value)) {
    return fail(`"deno_permissions" must be an object`);
  }
  const result: DenoPermissions = {};
  for (const [name, entry] of Object.entries(value as Record<string, unknown>)) {
    if (!(PERMISSION_NAMES as readonly string[]).includes(name)) {
      fail(`"deno_permissions" has an unknown permission "${name}"`);
    }
    const ok = typeof entry === "boolean" ||
      (Array.isArray(entry) && entry.every((v) => typeof v === "string" && v && !v.includes(",")));
    if (!ok) fail(`"deno_permissions.${name}" must be true, false or a list of values`);
    result[name as PermissionName] = entry as boolean | string[];
  }
  return result;
}

/** The Deno permissions that mirror a sandbox policy: its paths and its network. */
export function policyDenoPermissions(policy: SandboxPolicy): DenoPermissions {
  const result: DenoPermissions = {};
  if (policy.read.length + policy.write.length > 0) {
    result.read = [...policy.read, ...policy.write];
  }
  if (policy.write.length > 0) result.write = [...policy.write];
  if (policy.network !== false) result.net = policy.network;
  return result;
}

/**
 * Whether a launch runs a program that takes Deno's permission flags (its
 * launcher's `sandbox.denoPermissions`, lib/launch/), with the subcommand
 * they go to (`deno run …`): the launches these permissions apply to.
 */
export function isDenoRun(launch: StdioLaunch): boolean {
  return denoRunner(launch) !== undefined;
}

/** The script data of a launch that takes Deno's permission flags, if it is one. */
function denoRunner(launch: StdioLaunch): ScriptRuntime | undefined {
  const needs = launcherOfProgram(launch.command)?.sandbox;
  const script = needs?.script;
  if (!needs?.denoPermissions || !script) return undefined;
  return script.subcommand === undefined || launch.args[0] === script.subcommand
    ? script
    : undefined;
}

/**
 * The launch with `permissions` added to its `deno run` flags. A launch that
 * is not `deno run` is returned unchanged.
 *
 * @example
 * ```ts
 * withDenoPermissions(
 *   { transport: "stdio", command: "deno", args: ["run", "--no-prompt", "--allow-read=/s", "/s/m.ts"], env: {}, label: "deno m.ts" },
 *   [{ net: ["api.example.com"], read: ["/data"] }],
 * ).args;
 * // ["run", "--no-prompt", "--allow-read=/s,/data", "--allow-net=api.example.com", "/s/m.ts"]
 * ```
 */
export function withDenoPermissions(
  launch: StdioLaunch,
  permissions: DenoPermissions[],
): StdioLaunch {
  const runner = denoRunner(launch);
  if (!runner) return launch;
  const merged = new Map<PermissionName, true | Set<string>>();
  const grant = (name: PermissionName, value: boolean | string[]) => {
    if (value === false) return;
    const current = merged.get(name);
    if (value === true || current === true) merged.set(name, true);
    else merged.set(name, new Set([...(current ?? []), ...value]));
  };
  const script = scriptIndex(launch.args, runner.valueOptions);
  const rest: string[] = [];
  for (const arg of launch.args.slice(1, script)) {
    const match = /^--allow-([a-z]+)(?:=(.*))?$/.exec(arg);
    const name = match?.[1] as PermissionName | undefined;
    if (match && name && (PERMISSION_NAMES as readonly string[]).includes(name)) {
      grant(name, match[2] === undefined ? true : match[2].split(",").filter(Boolean));
    } else if (arg !== "--no-prompt") {
      rest.push(arg);
    }
  }
  for (const set of permissions) {
    for (const name of PERMISSION_NAMES) {
      const value = set[name];
      if (value !== undefined) grant(name, value);
    }
  }
  const flags: string[] = [];
  for (const name of PERMISSION_NAMES) {
    const value = merged.get(name);
    if (value === true) flags.push(`--allow-${name}`);
    else if (value && value.size > 0) flags.push(`--allow-${name}=${[...value].join(",")}`);
  }
  return {
    ...launch,
    args: ["run", "--no-prompt", ...flags, ...rest, ...launch.args.slice(script)],
  };
}

/**
 * Where a Deno server may write by its `deno run` flags, as written
 * (relative paths are relative to where it runs): `[]` when nowhere;
 * `undefined` when it is no Deno server, or one Deno does not confine
 * (`-A`, a bare or short write flag, `run` or `ffi`: it may start anything).
 */
export function denoWrites(launch: StdioLaunch): string[] | undefined {
  const runner = denoRunner(launch);
  if (!runner) return undefined;
  const writes: string[] = [];
  for (const arg of launch.args.slice(1, scriptIndex(launch.args, runner.valueOptions))) {
    if (/^(-[a-zA-Z]*[AW]|--allow-(all|run|ffi|write)(=$|$))/.test(arg)) return undefined;
    if (/^--allow-(run|ffi)=/.test(arg)) return undefined;
    const write = /^--allow-write=(.*)$/.exec(arg);
    if (write) writes.push(...write[1].split(",").filter(Boolean));
  }
  return writes;
}

/** Index of the script after `deno run`: the first argument that is not an option. */
function scriptIndex(args: string[], valueOptions: readonly string[]): number {
  let index = 1;
  while (index < args.length && args[index].startsWith("-")) {
    index += valueOptions.includes(args[index]) ? 2 : 1;
  }
  return Math.min(index, args.length);
}
