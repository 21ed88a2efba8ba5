/**
 * What `jn profile info @server` prints: the resolved profile (substituted
 * values as `***`, everything redacted once more) and its tools. Profile
 * files may come from a repository the user did not write: in text their
 * strings are shown with control characters made visible.
 *
 * @module
 */

import {
  describeArgv,
  describeProfile,
  type LaunchReview,
  type ProfileInfo,
  warningLines,
} from "../../client/profile_info.ts";
import { redact } from "../../output/redact.ts";
import { jsonSafe, visibleDeep } from "../../output/visible.ts";
import { type Style, style } from "../../output/style.ts";
import type { Cli } from "../context.ts";
import { type Io, useColor } from "../io.ts";
import type { Invocation } from "../table/command.ts";
import type { PROFILE_INFO } from "../table/commands.ts";
import { writeText } from "../write.ts";

/** `jn profile info @server`. */
export async function run(cli: Cli, call: Invocation<typeof PROFILE_INFO>): Promise<void> {
  await writeText(cli.io, await profileInfoText(cli.io, call.args.server, call.options.format));
}

/** What `profile info SERVER` prints. */
async function profileInfoText(
  io: Io,
  server: string,
  format: "text" | "json",
): Promise<string> {
  const { info, review, secrets } = await describeProfile(server, { cwd: io.cwd, env: io.env });
  const text = format === "json"
    ? jsonSafe(JSON.stringify(info, null, 2)) + "\n"
    : formatInfo(visibleDeep(info), style(useColor(io) && io.tty.stdout), review);
  return redact(text, secrets);
}

function formatInfo(info: ProfileInfo, s: Style, review: LaunchReview): string {
  const out: string[] = [`${s.bold(`@${info.name}`)}  ${s.dim(`(${info.layer}: ${info.dir})`)}`];
  if (info.description) out.push(`  ${info.description}`);
  const field = (label: string, value: string) =>
    out.push(`  ${s.dim(`${label}:`.padEnd(11))} ${value}`);
  if (info.url !== undefined) field("launch", `${info.url}  (${info.transport ?? "http"})`);
  else {
    const argv = describeArgv({
      transport: "stdio",
      command: info.command ?? "?",
      args: info.args ?? [],
      env: {},
      label: "",
    });
    field("launch", `${argv}  (stdio${info.command === "jn" ? ", this jn" : ""})`);
  }
  if (typeof info.server_version === "string") field("version", info.server_version);
  for (const [key, value] of Object.entries(info.env ?? {})) field("env", `${key}=${value}`);
  warningLines(review, (label, value) => field(label, s.yellow(value)));
  for (const [key, value] of Object.entries(info.headers ?? {})) {
    field("header", `${key}: ${value}`);
  }
  if (info.cwd !== undefined) field("cwd", info.cwd);
  if (info.unset_variables) {
    field(
      "unset",
      s.yellow(`${info.unset_variables.join(", ")} (set them before using @${info.name})`),
    );
  }
  const schema = info.schema_hash === undefined
    ? "no schema_hash (drift is not checked)"
    : `hash ${info.schema_hash}${
      info.schema_updated ? `, updated ${info.schema_updated}` : ""
    }, validation ${info.schema_validation ?? "warn"}`;
  if (review.startsIn) field("sandbox", review.sandbox);
  field("schema", schema);
  if (info.trust !== "not-needed") {
    field(
      "trust",
      info.trust === "trusted" ? "trusted" : s.yellow(
        `${
          info.trust === "changed" ? "changed since trusted" : "not trusted"
        }: run jn profile trust @${info.name}`,
      ),
    );
  }
  for (const dir of info.ignored ?? []) field("ignored", `${dir} (tool files without _meta.json)`);
  const globs = (list: string[] | undefined) => list?.map((g) => JSON.stringify(g)).join(", ");
  if (info.allow_tools !== undefined) field("allow", `${globs(info.allow_tools) || "(none)"}`);
  if (info.deny_tools !== undefined) field("deny", `${globs(info.deny_tools) || "(none)"}`);
  out.push("", `${s.bold("Tools")} (${info.tools.length})`);
  if (info.tools.length === 0) {
    out.push(s.dim(`  none defined: any server tool works as @${info.name}/TOOL`));
  }
  for (const tool of info.tools) {
    const mapped = tool.tool === tool.name ? "" : ` → ${tool.tool}`;
    out.push(`  ${s.bold(tool.name)}${mapped}  ${s.dim(`(${tool.layer})`)}`);
    if (tool.description) out.push(`      ${tool.description}`);
    const params = parameterSummary(tool.parameters, tool.inputSchema);
    if (params) out.push(`      ${s.dim("parameters:")} ${params}`);
    if (tool.defaults) out.push(`      ${s.dim("defaults:")} ${JSON.stringify(tool.defaults)}`);
    if (tool.output_format) out.push(`      ${s.dim("output:")} ${tool.output_format}`);
    const notes = Array.isArray(tool.notes) ? tool.notes.join(" ") : tool.notes;
    if (typeof notes === "string") out.push(`      ${s.dim("notes:")} ${notes}`);
  }
  if (info.hidden_tools !== undefined) {
    out.push(s.dim(`  hidden by allow_tools/deny_tools: ${info.hidden_tools.join(", ")}`));
  }
  return out.join("\n") + "\n";
}

function parameterSummary(parameters: unknown, inputSchema: unknown): string {
  const schema = inputSchema as {
    properties?: Record<string, { type?: unknown }>;
    required?: string[];
  } | undefined;
  if (schema?.properties !== undefined) {
    return Object.entries(schema.properties).map(([name, prop]) =>
      `${name} (${typeText(prop?.type)}${schema.required?.includes(name) ? ", required" : ""})`
    ).join(", ");
  }
  if (typeof parameters !== "object" || parameters === null) return "";
  return Object.entries(parameters as Record<string, { type?: unknown; required?: unknown }>).map((
    [name, p],
  ) => `${name} (${typeText(p?.type)}${p?.required === true ? ", required" : ""})`).join(", ");
}

function typeText(type: unknown): string {
  return Array.isArray(type) ? type.join("|") : typeof type === "string" ? type : "any";
}
