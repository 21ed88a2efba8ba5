/**
 * Turns a parsed source (naked URI or profile reference) into everything a
 * command needs to act: how to reach the server, what to do there, and the
 * arguments that fill in what the user did not give.
 *
 * @module
 */

import { buildLaunch } from "../launch/registry.ts";
import type { LaunchSpec } from "../launch/spec.ts";
import { profileLaunch } from "../profile/launch.ts";
import { loadRawProfile, profileTool, resolveProfile } from "../profile/resolve.ts";
import { assertTrusted } from "../profile/trust.ts";
import type { Profile } from "../profile/types.ts";
import type { DenoPermissions } from "../sandbox/deno_permissions.ts";
import { sandboxFields } from "../sandbox/profile_fields.ts";
import type { SandboxPolicy } from "../sandbox/policy.ts";
import type { Operation, RawArg, Source } from "../uri/source.ts";

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
  /** The resolved profile of a `@server` reference (schema fields for the drift check). */
  profile?: Profile;
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
  return resolveProfileTarget(source, options);
}

/**
 * A profile reference: the profile's launch (project profiles only when
 * trusted), its tool name mapped to the server's (`"tool"` field), and that
 * tool's `defaults`. A name the profile does not define is passed to the
 * server as is, so minimal profiles work (`@server?tool=T`).
 */
async function resolveProfileTarget(
  source: Extract<Source, { kind: "profile" }>,
  options: ResolveOptions,
): Promise<Target> {
  // Read once: trust is checked against the very bytes the launch and the call are built from.
  const raw = await loadRawProfile(source.server, options);
  // Trust first: an untrusted project profile is refused before it asks for variables.
  await assertTrusted(resolveProfile(raw, options.env, { lenient: true }), options.env);
  const profile = resolveProfile(raw, options.env);
  const launch = profileLaunch(profile);
  const confinement = sandboxFields(profile.meta, { file: profile.metaFile });
  if (launch.transport === "stdio" && confinement.envPassthrough.length > 0) {
    launch.envPassthrough = [...(launch.envPassthrough ?? []), ...confinement.envPassthrough];
  }
  let operation = source.operation;
  let defaults: Record<string, unknown> = {};
  if (operation.kind === "tool") {
    const tool = profileTool(profile, operation.name);
    if (tool !== undefined) {
      operation = { kind: "tool", name: tool.serverTool };
      defaults = { ...tool.def.defaults };
    }
  }
  return {
    source,
    launch,
    operation,
    queryArgs: source.args,
    defaults,
    secrets: profile.secrets,
    name: `@${profile.name}`,
    ...(profile.meta.roots === undefined ? {} : { roots: profile.meta.roots }),
    ...(confinement.sandbox ? { sandbox: confinement.sandbox } : {}),
    ...(confinement.denoPermissions ? { denoPermissions: confinement.denoPermissions } : {}),
    profile,
  };
}
