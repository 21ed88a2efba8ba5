/**
 * `jn profile list` and `jn profile info @server`: what profiles exist and
 * what one resolves to, without launching anything. Substituted values are
 * shown as `***`, and every output is passed through redaction once more.
 * Profile files may come from a repository the user did not write: in the
 * text formats their strings are shown with control characters made visible.
 *
 * @module
 */

import type { Command } from "commander";
import { describeArgv } from "../../launch/spec.ts";
import { redact } from "../../output/redact.ts";
import { jsonSafe, visibleDeep } from "../../output/visible.ts";
import { listProfiles, type ProfileEntry } from "../../profile/listing.ts";
import { loadProfile } from "../../profile/resolve.ts";
import { trustState } from "../../profile/trust.ts";
import type { Profile, ProfileTool } from "../../profile/types.ts";
import { type Style, style } from "../../output/style.ts";
import { type Io, useColor } from "../io.ts";
import { action, type Cli } from "../context.ts";
import { FORMAT_OPTION, parseFormat } from "../format.ts";
import { writeText } from "../write.ts";
import { profileName } from "./profile_common.ts";

/** Registers `profile list` and `profile info`. */
export function registerProfileShow(profile: Command, cli: Cli): void {
  profile.command("list")
    .description("every profile, with the layer it comes from")
    .option(FORMAT_OPTION.flags, FORMAT_OPTION.description, FORMAT_OPTION.default)
    .action(action(cli, async (raw: { format: string }) => {
      await writeText(cli.io, await profileListText(cli.io, parseFormat(raw.format)));
    }));

  profile.command("info")
    .description("the resolved profile (secrets shown as ***) and its tools")
    .argument("<server>", "@server")
    .option(FORMAT_OPTION.flags, FORMAT_OPTION.description, FORMAT_OPTION.default)
    .action(action(cli, async (server: string, raw: { format: string }) => {
      const format = parseFormat(raw.format);
      await writeText(cli.io, await profileInfoText(cli.io, server, format));
    }));
}

/**
 * What `profile list` prints. Writes nothing: lib/cli/light.ts, which runs
 * this command without commander, falls back to the CLI when it throws.
 */
export async function profileListText(io: Io, format: "text" | "json"): Promise<string> {
  const entries = await listProfiles({ cwd: io.cwd, env: io.env });
  if (format === "json") return jsonSafe(JSON.stringify(entries, null, 2)) + "\n";
  return formatList(visibleDeep(entries), style(useColor(io) && io.tty.stdout));
}

/** What `profile info SERVER` prints (written by the caller, as {@linkcode profileListText}). */
export async function profileInfoText(
  io: Io,
  server: string,
  format: "text" | "json",
): Promise<string> {
  const loaded = await loadProfile(profileName(server), {
    cwd: io.cwd,
    env: io.env,
    lenient: true,
  });
  const info = { ...profileInfo(loaded), trust: await trustState(loaded, io.env) };
  const text = format === "json"
    ? jsonSafe(JSON.stringify(info, null, 2)) + "\n"
    : formatInfo(visibleDeep(info), style(useColor(io) && io.tty.stdout));
  return redact(text, loaded.secrets);
}

const STATUS_TEXT: Record<ProfileEntry["status"], (e: ProfileEntry) => string> = {
  active: () => "",
  extends: (e) => `extends the ${e.defined_in} profile with its tool files`,
  shadowed: (e) => `shadowed by the ${e.defined_in} profile`,
  ignored: (e) =>
    `ignored: no _meta.json here, and the ${e.defined_in} profile is not extended from above`,
  "no-meta": () => "ignored: no _meta.json in any layer",
  invalid: (e) => `invalid: ${e.error}`,
};

function formatList(entries: ProfileEntry[], s: Style): string {
  if (entries.length === 0) return "No profiles.\n";
  const width = Math.max(...entries.map((e) => e.name.length)) + 1;
  const lines: string[] = [];
  for (const entry of entries) {
    const name = `@${entry.name}`.padEnd(width + 1);
    const head = `${entry.status === "active" ? s.bold(name) : s.dim(name)}  ${
      entry.layer.padEnd(7)
    }  ${s.dim(entry.path)}`;
    lines.push(head);
    const status = STATUS_TEXT[entry.status](entry);
    const text = [status, entry.description].filter(Boolean).join(" — ");
    if (text) lines.push(`${" ".repeat(width + 3)}${status ? s.yellow(text) : text}`);
  }
  return lines.join("\n") + "\n";
}

/** What `profile info --format json` prints (values as displayed: secrets are `***`). */
function profileInfo(profile: Profile) {
  const { tools: _tools, ...meta } = profile.displayMeta;
  return {
    name: profile.name,
    layer: profile.layer,
    dir: profile.dir,
    meta_file: profile.metaFile,
    writable: profile.writable,
    ...meta,
    ...(profile.missing.length > 0 ? { unset_variables: profile.missing } : {}),
    tools: profile.tools.map((tool) => toolInfo(tool)),
    ...(profile.ignored.length > 0 ? { ignored: profile.ignored } : {}),
  };
}

function toolInfo(tool: ProfileTool) {
  const { tool: _tool, inputSchema, ...def } = tool.display;
  return {
    name: tool.name,
    tool: tool.serverTool,
    layer: tool.layer,
    ...(tool.file === undefined ? {} : { file: tool.file }),
    ...def,
    ...(inputSchema === undefined ? {} : { inputSchema }),
  };
}

type Info = ReturnType<typeof profileInfo> & { trust: string };

function formatInfo(info: Info, s: Style): string {
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
  for (const [key, value] of Object.entries(info.env ?? {})) field("env", `${key}=${value}`);
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
