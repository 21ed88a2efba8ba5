/**
 * Turns a source (a naked URI or a profile reference, as text or parsed)
 * into everything a verb needs to act: how to reach the server, what to do
 * there, the arguments that fill in what the caller did not give, and the
 * profile's policy (its sandbox, Deno permissions, roots, drift settings).
 *
 * Guarantees: a project profile is refused (ConfigError) unless the user
 * trusted its directory as it is now, before any of its variables is read,
 * and trust is checked against the very bytes the launch and the call are
 * built from.
 *
 * The profile modules (reading, trust, fields) load for a profile reference
 * only.
 *
 * @module
 */

import { UsageError } from "../errors.ts";
import { buildLaunch } from "../launch/build.ts";
import { shortName } from "../launch/registry.ts";
import type { LaunchSpec } from "../launch/spec.ts";
import type { Profile } from "../profile/types.ts";
import type { DenoPermissions } from "../sandbox/deno_permissions.ts";
import type { SandboxPolicy } from "../sandbox/policy.ts";
import { parseSource } from "../uri/parse.ts";
import type { Operation, RawArg, Source } from "../uri/source.ts";
import type { ElicitAnswers } from "./elicit_answers.ts";

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
  /** The profile's `sampling_command`: a shell command answering sampling requests. */
  samplingCommand?: string;
  /** Where `samplingCommand` runs (the profile's real directory); the caller's cwd when absent. */
  samplingDir?: string;
  /** The profile's `elicit_answers`: its answers to the server's forms. */
  elicitAnswers?: ElicitAnswers;
}

/** Options of {@linkcode resolveTarget}. */
export interface ResolveOptions {
  /** The caller's directory (project profiles, relative script paths). */
  cwd: string;
  /** The caller's environment (`${VAR}` substitution, the user's profile directories). */
  env: Record<string, string>;
}

/**
 * Resolves a source (`mcp+…://` URI or `@profile` reference) into a target.
 *
 * @example
 * ```ts
 * import { resolveTarget } from "@jn/jn";
 *
 * const target = await resolveTarget("@demo/add?a=2&b=40", {
 *   cwd: Deno.cwd(),
 *   env: Deno.env.toObject(),
 * });
 * console.log(target.operation); // { kind: "tool", name: "add" }
 * ```
 */
export async function resolveTarget(
  source: Source | string,
  options: ResolveOptions,
): Promise<Target> {
  if (typeof source === "string") source = parseSource(source);
  if (source.kind === "naked") {
    const launch = buildLaunch(source, { cwd: options.cwd });
    return {
      source,
      launch,
      operation: source.operation,
      queryArgs: source.args,
      defaults: {},
      secrets: [],
      name: launch.label,
    };
  }
  return await resolveProfileTarget(source, options);
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
  const [{ profileLaunch }, { loadRawProfile, profileTool, resolveProfile }, { assertTrusted }, {
    sandboxFields,
  }] = await Promise.all([
    import("../profile/launch.ts"),
    import("../profile/resolve.ts"),
    import("../profile/trust.ts"),
    import("../sandbox/profile_fields.ts"),
  ]);
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
  } else if (operation.kind === "task" && operation.tool !== undefined) {
    const tool = profileTool(profile, operation.tool);
    if (tool !== undefined) operation = { ...operation, tool: tool.serverTool };
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
    ...(profile.meta.sampling_command === undefined ? {} : {
      samplingCommand: profile.meta.sampling_command,
      samplingDir: (await import("../profile/launch_review.ts")).samplingCommandDir(profile),
    }),
    ...(profile.meta.elicit_answers === undefined
      ? {}
      : { elicitAnswers: profile.meta.elicit_answers as ElicitAnswers }),
    ...(confinement.sandbox ? { sandbox: confinement.sandbox } : {}),
    ...(confinement.denoPermissions ? { denoPermissions: confinement.denoPermissions } : {}),
    profile,
  };
}

/** The seed's `server` field: a naked URI's location, or a profile's name. */
export function serverName(target: Target): string {
  return target.source.kind === "naked" ? target.source.location : target.source.server;
}

/**
 * The server's name for lines repeated while it works (progress, task
 * status): `@profile`, or a naked URI's short name (`server-everything`,
 * `server.py`, `example.com`) instead of its whole command line.
 *
 * @example
 * ```ts
 * import { resolveTarget, targetShortName } from "@jn/jn";
 *
 * const target = await resolveTarget("mcp+npx://@modelcontextprotocol/server-everything", {
 *   cwd: Deno.cwd(),
 *   env: {},
 * });
 * targetShortName(target); // "server-everything"
 * ```
 */
export function targetShortName(target: Target): string {
  return target.source.kind === "naked" ? shortName(target.source) : target.name;
}

/**
 * A source that names a server only — no operation, no arguments — as the
 * verbs that work on a whole server take it (`takenBy` names the verb in the
 * message: `--from`, `mcp hash`). A UsageError otherwise, before anything
 * starts.
 */
export function serverSource(text: string, takenBy: string): Source {
  const source = parseSource(text);
  if (source.operation.kind !== "none" || source.args.length > 0) {
    throw new UsageError(`${takenBy} takes a server, not an operation: "${text}"`, {
      hint: "drop ?tool=, ?resource=, ?prompt=, ?list= and arguments from the source",
    });
  }
  return source;
}

/** The server's name of a tool: a profile's own tool name stands for the tool it calls. */
export function serverToolName(target: Target, name: string): string {
  return target.profile?.tools.find((tool) => tool.name === name)?.serverTool || name;
}
