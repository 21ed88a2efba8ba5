/**
 * A profile discovered from a live server (`jn profile create NAME --from
 * SOURCE`): the launch config of the source, a description from the server's
 * identity, and one tool file per tool with its description, its parameters
 * in the seed's form, the exact `inputSchema` snapshot; `schema_hash` and
 * `schema_updated` in `_meta.json`.
 *
 * @module
 */

import type { LaunchSpec } from "../../launch/spec.ts";
import type { SandboxPolicy } from "../../sandbox/policy.ts";
import type { ServerIdentity, ToolInfo } from "../../types.ts";
import { schemaHash } from "../../schema/hash.ts";
import { escapeValue, escapeVariables } from "../expand.ts";
import { isSafeToolFileName, toolDefFromLive } from "./snapshot.ts";
import type { MetaDef, ToolDef } from "../types.ts";
import type { ProfileFiles } from "./write.ts";

/** The launch fields of `_meta.json` for a naked source's launch spec. */
export function launchFields(launch: LaunchSpec): MetaDef {
  if (launch.transport !== "stdio") {
    return {
      transport: launch.transport,
      url: escapeValue(launch.url),
      ...(Object.keys(launch.headers).length > 0 ? { headers: escapeValue(launch.headers) } : {}),
    };
  }
  return {
    command: escapeValue(launch.command),
    args: escapeValue(launch.args),
    ...(Object.keys(launch.env).length > 0 ? { env: escapeValue(launch.env) } : {}),
    ...(launch.cwd === undefined ? {} : { cwd: escapeValue(launch.cwd) }),
    transport: "stdio",
  };
}

/**
 * The fields of `_meta.json` that say how to start (and confine) a server,
 * and which of its tools a caller gets (a copy keeps the curation).
 */
const LAUNCH_FIELDS = [
  "command",
  "args",
  "env",
  "cwd",
  "transport",
  "url",
  "headers",
  "sandbox",
  "env_passthrough",
  "deno_permissions",
  "roots",
  "allow_tools",
  "deny_tools",
] as const;

/** The launch fields of a profile as written (`${VAR}` references kept). */
export function rawLaunchFields(meta: MetaDef): MetaDef {
  const out: Record<string, unknown> = {};
  for (const key of LAUNCH_FIELDS) if (meta[key] !== undefined) out[key] = meta[key];
  return out as MetaDef;
}

/**
 * The connection flags of `jn profile create --from` that a profile can hold:
 * what the server needs on every use, so the profile must say it.
 */
export interface RecordedFlags {
  /** `--env-passthrough`: names of the caller's variables passed to a stdio server. */
  envPassthrough?: readonly string[];
  /** `--sandbox*`: the policy the flags give. */
  sandbox?: SandboxPolicy;
  /** `--root`: directories exposed as roots (as given). */
  roots?: readonly string[];
  /** `--header`: extra HTTP headers of a remote server. */
  headers?: Readonly<Record<string, string>>;
  /** `--token-env VAR`: the bearer token's variable (recorded as `${VAR}`, never its value). */
  tokenEnv?: string;
  /** `--elicit-answers`: the answers to the server's forms. */
  elicitAnswers?: unknown;
}

/** Header names whose values are credentials: never written to a profile as given. */
const CREDENTIAL_HEADER = /authorization|token|key|secret|cookie/i;

/**
 * `_meta.json`'s launch fields with the flags of `profile create --from`
 * added: `env_passthrough` (union, stdio only), `sandbox` (`true` for the
 * default policy, else the object), `roots` (union), `headers` (remote only;
 * `--token-env VAR` becomes `"Authorization": "Bearer ${VAR}"`). A
 * credential header given by value is left out (it would be a secret in a
 * file): `skipped` says which, for a notice.
 *
 * @example
 * ```ts
 * withRecordedFlags({ command: "node", args: ["s.js"], transport: "stdio" }, {
 *   envPassthrough: ["API_KEY"],
 *   sandbox: { network: false, read: [], write: ["./out"] },
 * }).launch;
 * // { command: "node", args: ["s.js"], transport: "stdio", env_passthrough: ["API_KEY"],
 * //   sandbox: { network: false, write: ["./out"] } }
 * ```
 */
export function withRecordedFlags(
  launch: MetaDef,
  flags: RecordedFlags,
): { launch: MetaDef; skipped: string[] } {
  const out: MetaDef = { ...launch };
  const skipped: string[] = [];
  const remote = out.url !== undefined;
  const union = (before: unknown, added: readonly string[]) => [
    ...new Set([...(Array.isArray(before) ? before as string[] : []), ...added]),
  ];
  if (!remote && (flags.envPassthrough?.length ?? 0) > 0) {
    out.env_passthrough = union(out.env_passthrough, flags.envPassthrough!);
  }
  if (flags.sandbox !== undefined) out.sandbox = mergedSandbox(out.sandbox, flags.sandbox);
  if ((flags.roots?.length ?? 0) > 0) {
    out.roots = union(out.roots, flags.roots!.map((root) => escapeVariables(root)));
  }
  if (flags.elicitAnswers !== undefined && flags.elicitAnswers !== false) {
    out.elicit_answers = escapeValue(flags.elicitAnswers) as MetaDef["elicit_answers"];
  }
  if (remote) {
    const headers: Record<string, string> = { ...out.headers };
    for (const [name, value] of Object.entries(flags.headers ?? {})) {
      if (CREDENTIAL_HEADER.test(name)) skipped.push(name);
      else headers[name] = escapeVariables(value);
    }
    if (flags.tokenEnv !== undefined) headers.Authorization = `Bearer \${${flags.tokenEnv}}`;
    if (Object.keys(headers).length > 0) out.headers = headers;
  }
  return { launch: out, skipped };
}

/**
 * A profile's `sandbox` (as written) widened by the flags' policy, as a use
 * merges them: network if either allows it (host lists joined), paths
 * joined. `true` when nothing is declared.
 */
function mergedSandbox(written: unknown, policy: SandboxPolicy): unknown {
  const base: Record<string, unknown> = written !== null && typeof written === "object"
    ? written as Record<string, unknown>
    : {};
  const list = (value: unknown) => Array.isArray(value) ? value as string[] : [];
  const join = (a: unknown, b: readonly string[]) => [
    ...new Set([...list(a), ...b.map(escapeVariables)]),
  ];
  const read = join(base.read, policy.read);
  const write = join(base.write, policy.write);
  const network = base.network === true || policy.network === true
    ? true
    : Array.isArray(base.network) || Array.isArray(policy.network)
    ? join(base.network, Array.isArray(policy.network) ? policy.network : [])
    : false;
  if (network === false && read.length === 0 && write.length === 0) return true;
  return {
    network,
    ...(read.length > 0 ? { read } : {}),
    ...(write.length > 0 ? { write } : {}),
  };
}

/** Options of {@linkcode liveProfileFiles}. */
export interface LiveOptions {
  /** `_meta.json`'s launch fields. */
  launch: MetaDef;
  server: ServerIdentity;
  tools: readonly ToolInfo[];
  /** What the profile was made from, for the description. */
  source: string;
  /** The time written as `schema_updated` (ISO 8601). */
  now?: Date;
}

/** Builds the files of a profile discovered from a live server. */
export function liveProfileFiles(options: LiveOptions): ProfileFiles {
  // The version goes in server_version, which profile update keeps current.
  const intro = options.server.instructions?.trim().split("\n")[0];
  const description = [options.server.name || options.source, intro].filter(Boolean).join(": ");
  const version = options.server.version?.slice(0, 64);
  const meta: MetaDef = {
    description: escapeValue(
      description.length > 200 ? `${description.slice(0, 199)}…` : description,
    ),
    ...(typeof version === "string" && version !== ""
      ? { server_version: escapeValue(version) }
      : {}),
    ...options.launch,
    schema_hash: schemaHash(options.tools),
    schema_updated: (options.now ?? new Date()).toISOString().replace(/\.\d{3}Z$/, "Z"),
    schema_validation: "warn",
  };
  const files = new Map<string, ToolDef>();
  const inline: Record<string, ToolDef> = {};
  for (const tool of [...options.tools].sort((a, b) => a.name < b.name ? -1 : 1)) {
    if (isSafeToolFileName(tool.name) && !files.has(tool.name)) {
      files.set(tool.name, toolDefFromLive(tool));
    } else inline[tool.name] = toolDefFromLive(tool);
  }
  if (Object.keys(inline).length > 0) meta.tools = inline;
  return { meta, tools: files };
}
