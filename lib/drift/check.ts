/**
 * lib/drift: a profile compared with its live server: the report, the check on
 * use, its text.
 *
 * The schema drift check that runs whenever a profile with a `schema_hash`
 * is used (SPEC §5), and the behavioural check of a tool's result against
 * the profile's `output_format`. Pure decisions: the caller (lib/client)
 * lists the tools, reports what these return and throws the error.
 *
 * `schema_validation`: `warn` (default) reports the classified changes and
 * goes on; `error` stops on breaking changes (others are reported and the run
 * goes on); `ignore` and `--ignore-schema` skip the check.
 *
 * @module
 */

import { DriftError } from "../errors.ts";
import type { Profile, ProfileTool } from "../profile/types.ts";
import { behaviouralChange, type SchemaChange } from "../schema/diff.ts";
import type { ToolCallResult, ToolInfo } from "../types.ts";
import { plural } from "./plural.ts";
import { type DriftReport, driftReport } from "./report.ts";

/** What the check on use decided. */
export interface DriftVerdict {
  /** The profile compared with the live tools. */
  report: DriftReport;
  /** Breaking changes under `schema_validation: error`: the run must stop. */
  stop: boolean;
}

/** Whether a profile's schema is checked when it is used. */
export function driftChecked(
  profile: Profile | undefined,
  options: { ignoreSchema?: boolean } = {},
): profile is Profile {
  if (profile === undefined || options.ignoreSchema) return false;
  const mode = profile.meta.schema_validation ?? "warn";
  return mode !== "ignore" && profile.meta.schema_hash !== undefined;
}

/** Compares a checked profile with its live tools. */
export function driftVerdict(profile: Profile, live: readonly ToolInfo[]): DriftVerdict {
  const report = driftReport(profile, live);
  const mode = profile.meta.schema_validation ?? "warn";
  return {
    report,
    stop: report.status === "changed" && mode === "error" && report.counts.breaking > 0,
  };
}

/** The error of a verdict that stops the run (exit 3 in the CLI). */
export function driftError(profile: Profile, report: DriftReport): DriftError {
  return new DriftError(
    `Breaking schema drift in ${report.server}: ${
      plural(report.counts.breaking, "breaking change")
    } (schema_validation is "error")`,
    {
      path: profile.metaFile,
      hint:
        `update the profile: jn profile update ${report.server} (or rerun with --ignore-schema)`,
    },
  );
}

/** A result whose media type differs from the profile tool's `output_format`. */
export interface OutputFormatDrift {
  /** The behavioural change. */
  change: SchemaChange;
  /** The profile. */
  profile: Profile;
  /** The profile tool whose `output_format` differs. */
  tool: ProfileTool;
}

/**
 * After a tool call: the behavioural change when the result's media type
 * differs from the profile tool's `output_format`. `asked` is the tool name
 * the caller used (a profile tool name, or the server's); `tool` the server
 * tool that was called. A text item without `mimeType` counts as
 * `application/json` when it holds a JSON object or array, else as
 * `text/plain`.
 */
export function outputFormatDrift(
  profile: Profile | undefined,
  call: { asked: string; tool: string; result: ToolCallResult },
  options: { ignoreSchema?: boolean } = {},
): OutputFormatDrift | undefined {
  if (profile === undefined || options.ignoreSchema) return undefined;
  if ((profile.meta.schema_validation ?? "warn") === "ignore" || call.result.isError === true) {
    return undefined;
  }
  const tool = profile.tools.find((t) => t.name === call.asked) ??
    profile.tools.find((t) => t.serverTool === call.tool && t.def.output_format);
  const change = behaviouralChange(
    call.tool,
    tool?.def.output_format,
    observedMimeType(call.result),
  );
  return change === undefined || tool === undefined ? undefined : { change, profile, tool };
}

/** The media type of a result's first content item, inferred for bare text. */
export function observedMimeType(result: ToolCallResult): string | undefined {
  const item = result.content?.[0];
  if (item === undefined) return undefined;
  if (typeof item.mimeType === "string") return item.mimeType;
  if (item.type === "resource") {
    const resource = item.resource as { mimeType?: unknown } | undefined;
    return typeof resource?.mimeType === "string" ? resource.mimeType : undefined;
  }
  if (item.type !== "text" || typeof item.text !== "string") return undefined;
  try {
    const value = JSON.parse(item.text);
    return typeof value === "object" && value !== null ? "application/json" : "text/plain";
  } catch {
    return "text/plain";
  }
}
