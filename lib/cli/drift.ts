/**
 * The schema drift check that runs whenever a profile with a `schema_hash`
 * is used (SPEC §5). Called by `withSession()` right after connecting, so
 * every command that uses a profile gets it once (`inspect`, `cat`, `head`,
 * `tail`, `put`); the tool listing is cached by the session, so the call
 * that follows reuses it.
 *
 * `schema_validation`: `warn` (default) prints the classified changes and the
 * fix on stderr and goes on (`--quiet` silences it); `error` stops with exit 3
 * on breaking changes (others are reported and the run goes on); `ignore`
 * and `--ignore-schema` skip the check.
 *
 * @module
 */

import { DriftError } from "../errors.ts";
import { redact } from "../output/redact.ts";
import { type DriftReport, driftReport } from "../drift/report.ts";
import { behaviouralChange, type SchemaChange } from "../schema/diff.ts";
import type { Session } from "../session/session.ts";
import type { ToolCallResult } from "../types.ts";
import type { Target } from "../client/resolve.ts";
import { type Style, style } from "../output/style.ts";
import { printErr, useColor } from "./io.ts";
import type { Ctx } from "./main.ts";
import type { CallFlags } from "./options.ts";

/** Checks the live server against the profile's expectations. */
export async function checkDrift(
  ctx: Ctx,
  target: Target,
  session: Session,
  flags: CallFlags,
): Promise<void> {
  const profile = target.profile;
  if (profile === undefined || flags.ignoreSchema) return;
  const mode = profile.meta.schema_validation ?? "warn";
  if (mode === "ignore" || profile.meta.schema_hash === undefined) return;
  const report = driftReport(profile, await session.listTools());
  if (report.status !== "changed") return;
  const s = style(useColor(ctx.io));
  const stop = mode === "error" && report.counts.breaking > 0;
  if (ctx.quiet && !stop) return;
  const lines = stop ? [...changeLines(report, s), "", ...hashLines(report), ""] : [
    `${
      s.yellow("jn: warning:")
    } the MCP server schema of ${report.server} has changed since the profile was written`,
    "",
    ...changeLines(report, s),
    "",
    ...hashLines(report),
    "",
    "Options:",
    `  1. Update the profile: jn profile update ${report.server}`,
    `  2. See the changes:    jn profile diff ${report.server}`,
    "  3. Ignore (may cause errors): rerun with --ignore-schema",
  ];
  await printErr(ctx.io, redact(lines.join("\n"), target.secrets));
  if (stop) {
    throw new DriftError(
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
}

/**
 * After a tool call: warns when the result's media type differs from the
 * profile tool's `output_format` (a behavioural change). A text item without
 * `mimeType` counts as `application/json` when it holds a JSON object or
 * array, else as `text/plain`.
 */
export async function checkOutputFormat(
  ctx: Ctx,
  target: Target,
  flags: CallFlags,
  result: ToolCallResult,
): Promise<void> {
  const profile = target.profile;
  const { source, operation } = target;
  if (profile === undefined || flags.ignoreSchema || ctx.quiet || operation.kind !== "tool") return;
  if ((profile.meta.schema_validation ?? "warn") === "ignore" || result.isError === true) return;
  const asked = source.operation.kind === "tool" ? source.operation.name : operation.name;
  const tool = profile.tools.find((t) => t.name === asked) ??
    profile.tools.find((t) => t.serverTool === operation.name && t.def.output_format);
  const change = behaviouralChange(
    operation.name,
    tool?.def.output_format,
    observedMimeType(result),
  );
  if (change === undefined) return;
  const s = style(useColor(ctx.io));
  await printErr(
    ctx.io,
    redact(
      `${s.yellow("jn: warning:")} ${change.message} (behavioural)\n` +
        `hint: if that is how @${profile.name}/${
          tool!.name
        } answers now, change "output_format" in ${tool!.file ?? profile.metaFile}`,
      target.secrets,
    ),
  );
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

/** `Changes detected:` and one line per change, its severity in brackets. */
export function changeLines(report: DriftReport, s: Style): string[] {
  if (report.changes.length === 0) {
    return [
      "Changes detected: none in the tools the profile records (its snapshots do not cover what changed)",
    ];
  }
  return ["Changes detected:", ...report.changes.map((change) => `  - ${changeText(change, s)}`)];
}

/** One change: its message and its severity. */
export function changeText(change: SchemaChange, s: Style): string {
  const tag = change.severity === "breaking"
    ? s.red("breaking")
    : change.severity === "behavioural"
    ? s.yellow("behavioural")
    : s.dim("non-breaking");
  return `${change.message} (${tag})`;
}

/** The seed's two hash lines. */
export function hashLines(report: DriftReport): string[] {
  return [
    `Profile hash: ${report.profile_hash ?? "(none)"}`,
    `Current hash: ${report.current_hash}`,
  ];
}

/** `1 breaking change`, `2 breaking changes`. */
export function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}
