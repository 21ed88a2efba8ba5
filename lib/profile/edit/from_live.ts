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
import type { ServerIdentity, ToolInfo } from "../../types.ts";
import { schemaHash } from "../../schema/hash.ts";
import { escapeValue } from "../expand.ts";
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

/** The fields of `_meta.json` that say how to start (and confine) a server. */
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
] as const;

/** The launch fields of a profile as written (`${VAR}` references kept). */
export function rawLaunchFields(meta: MetaDef): MetaDef {
  const out: Record<string, unknown> = {};
  for (const key of LAUNCH_FIELDS) if (meta[key] !== undefined) out[key] = meta[key];
  return out as MetaDef;
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
  const identity = [options.server.name, options.server.version].filter(Boolean).join(" ");
  const intro = options.server.instructions?.trim().split("\n")[0];
  const description = [identity || options.source, intro].filter(Boolean).join(": ");
  const meta: MetaDef = {
    description: escapeValue(
      description.length > 200 ? `${description.slice(0, 199)}…` : description,
    ),
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
