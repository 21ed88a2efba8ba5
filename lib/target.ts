/**
 * Turns a parsed source (naked URI or profile reference) into everything a
 * command needs to act: how to reach the server, what to do there, and the
 * arguments that fill in what the user did not give.
 *
 * @module
 */

import { ConfigError } from "./errors.ts";
import { buildLaunch } from "./launch/registry.ts";
import type { LaunchSpec } from "./launch/spec.ts";
import type { DenoPermissions } from "./sandbox/deno_permissions.ts";
import type { SandboxPolicy } from "./sandbox/policy.ts";
import type { Operation, RawArg, Source } from "./uri/source.ts";

/** A source resolved against the launchers and profiles. */
export interface Target {
  /** The source as given. */
  source: Source;
  /** How to reach the server. */
  launch: LaunchSpec;
  /** What to do there (a profile tool name is already mapped to the server's tool name). */
  operation: Operation;
  /** Arguments from the URI's query, raw. */
  queryArgs: RawArg[];
  /** Arguments that apply unless the call gives them (profile `defaults`). */
  defaults: Record<string, unknown>;
  /** Values substituted from the environment: never printed. */
  secrets: string[];
  /** A short server name for messages (`@server` or the launch label). */
  name: string;
  /** Directories to expose as roots (profile `roots`), relative to the cwd or absolute. */
  roots?: string[];
  /** The profile's `sandbox` (see lib/sandbox/policy.ts `parseSandboxPolicy`). */
  sandbox?: SandboxPolicy;
  /** The profile's `deno_permissions` (see lib/sandbox/deno_permissions.ts). */
  denoPermissions?: DenoPermissions;
}

/** Options of {@linkcode resolveTarget}. */
export interface ResolveOptions {
  cwd: string;
  env: Record<string, string>;
}

/** Resolves a source into a target. */
export function resolveTarget(source: Source, options: ResolveOptions): Promise<Target> {
  if (source.kind === "naked") {
    const launch = buildLaunch(source, { cwd: options.cwd });
    return Promise.resolve({
      source,
      launch,
      operation: source.operation,
      queryArgs: source.args,
      defaults: {},
      secrets: [],
      name: launch.label,
    });
  }
  return Promise.reject(
    new ConfigError(`Profile "@${source.server}" not found`, {
      hint: "list profiles with 'jn profile list'",
    }),
  );
}
