/**
 * Editors' MCP server entries (Claude Desktop/Code, Cursor, VS Code,
 * Windsurf, Zed) turned into profiles. Pure: the caller reads the files and
 * writes the profiles.
 *
 * - The editors' shapes are read as one: `url` or Windsurf's `serverUrl`;
 *   `command` as a string with `args`/`env`, or Zed's
 *   `{"command": {"path", "args", "env"}}`. A Zed entry that only configures
 *   an extension's server (`"settings"`, `"source": "extension"`) is skipped:
 *   there is nothing jn could start.
 * - A switched-off entry (`"disabled": true`, Zed's `"enabled": false`) is
 *   not imported.
 * - Variable references are kept as jn's `${VAR}`: `${VAR}`/`${VAR:-x}` stay,
 *   `${env:VAR}` becomes `${VAR}`, VS Code's `${input:id}` becomes `${ID}`
 *   (jn asks nothing: it reads the variable); `${userHome}` and a
 *   workspace config's `${workspaceFolder}` become the paths they stand for.
 *   A user-level entry using `${workspaceFolder}` is skipped with a note: a
 *   user profile runs from any directory, so no path is right for it.
 * - A literal secret (see import_secrets.ts: `env` values and headers named
 *   like one, known token shapes, `--token VALUE`, credentials in URLs) is
 *   not copied: jn writes a `${VAR}` reference instead and reports which
 *   variable to set. The value itself is never printed.
 *
 * @module
 */

import type { ConfigLocation } from "./import_paths.ts";
import { isPlainObject } from "../fields.ts";
import { envName, moveArgSecrets, moveSecrets, moveUrlSecrets } from "./import_secrets.ts";
import { SERVER_NAME } from "../layers.ts";
import type { MetaDef } from "../types.ts";

/** One server entry converted. */
export interface ImportedServer {
  /** The profile name (the entry's key, made a valid name). */
  name: string;
  /** The entry's key in the config. */
  key: string;
  /** Its `_meta.json`. */
  meta: MetaDef;
  /** What the user should know: variables to set, renamed entries, dropped fields. */
  notes: string[];
}

/** Context of a conversion. */
export interface ImportContext {
  location: ConfigLocation;
  /** The user's home, for `${userHome}`. */
  home?: string;
  /** The working directory (a user-level `${workspaceFolder}` is not resolved against it). */
  cwd: string;
}

/** The server entries of a parsed config file, by their key. */
export function serverEntries(config: unknown, location: ConfigLocation): Record<string, unknown> {
  if (!isPlainObject(config)) return {};
  switch (location.key) {
    case "mcpServers":
    case "servers":
    case "context_servers":
      return isPlainObject(config[location.key])
        ? config[location.key] as Record<string, unknown>
        : {};
    case "mcp.servers": {
      const mcp = config.mcp;
      const nested = isPlainObject(mcp) && isPlainObject(mcp.servers) ? mcp.servers : undefined;
      const flat = config["mcp.servers"];
      return (nested ?? (isPlainObject(flat) ? flat : {})) as Record<string, unknown>;
    }
    case "claude-local": {
      const here = claudeProject(config, location.workspace);
      return isPlainObject(here?.mcpServers) ? here.mcpServers : {};
    }
  }
}

/** `projects[workspace]` of `~/.claude.json`, when it is there. */
export function claudeProject(
  config: unknown,
  workspace: string | undefined,
): Record<string, unknown> | undefined {
  if (!isPlainObject(config) || !isPlainObject(config.projects) || workspace === undefined) {
    return undefined;
  }
  const here = Object.hasOwn(config.projects, workspace) ? config.projects[workspace] : undefined;
  return isPlainObject(here) ? here : undefined;
}

/** Names the user switched off in Claude Code (`projects[cwd].disabledMcpServers` …), for a location. */
export function disabledNames(location: ConfigLocation, config: unknown): Set<string> {
  if (location.disabledIn === undefined) return new Set();
  const list = claudeProject(config, location.workspace)?.[location.disabledIn.key];
  return new Set(Array.isArray(list) ? list.filter((n) => typeof n === "string") : []);
}

/** Any config file: whichever of `mcpServers`, `servers`, `mcp.servers`, `context_servers` it has. */
export function guessServersKey(config: unknown): ConfigLocation["key"] | undefined {
  if (!isPlainObject(config)) return undefined;
  if (isPlainObject(config.mcpServers)) return "mcpServers";
  if (isPlainObject(config.servers)) return "servers";
  if (isPlainObject(config.mcp) && isPlainObject(config.mcp.servers)) return "mcp.servers";
  if (isPlainObject(config.context_servers)) return "context_servers";
  return undefined;
}

/** Why an entry was not converted; `disabled` when the user switched it off. */
export interface SkippedEntry {
  skipped: string;
  disabled?: boolean;
}

/** Converts one entry, or says why it is skipped. */
export function importEntry(
  key: string,
  raw: unknown,
  ctx: ImportContext,
): ImportedServer | SkippedEntry {
  const name = profileNameFor(key);
  const notes: string[] = [];
  if (name !== key) notes.push(`entry "${key}" is saved as @${name}`);
  if (!isPlainObject(raw)) return { skipped: `entry "${key}" is not an object` };
  if (raw.disabled === true || raw.enabled === false) {
    return { skipped: `entry "${key}" is switched off`, disabled: true };
  }
  const entry = normalizeEntry(raw);
  if (entry === undefined) {
    return { skipped: `entry "${key}" configures a Zed extension's server: jn cannot start it` };
  }
  const workspaceless: string[] = [];
  const conv = (text: string) => convertVariables(text, ctx, notes, workspaceless);
  const type = String(entry.type ?? entry.transport ?? (entry.url ? "http" : "stdio"))
    .toLowerCase();
  const meta: MetaDef = {
    description: `Imported from ${ctx.location.label} (${ctx.location.path})`,
  };
  if (type === "stdio") {
    if (typeof entry.command !== "string" || entry.command === "") {
      return { skipped: `entry "${key}" has no "command"` };
    }
    meta.command = conv(entry.command);
    const args = Array.isArray(entry.args) ? entry.args.map((a) => conv(String(a))) : [];
    if (args.length > 0) meta.args = moveArgSecrets(args, name, notes);
    const env = stringMap(entry.env, conv);
    if (env) meta.env = moveSecrets(env, { notes, varFor: (k) => k, what: "env" });
    if (typeof entry.cwd === "string") meta.cwd = conv(entry.cwd);
    meta.transport = "stdio";
  } else if (["http", "sse", "streamable-http", "streamablehttp"].includes(type)) {
    if (typeof entry.url !== "string" || entry.url === "") {
      return { skipped: `entry "${key}" has no "url"` };
    }
    meta.transport = type === "sse" ? "sse" : "http";
    meta.url = moveUrlSecrets(conv(entry.url), `${name}_url`, notes);
    const headers = stringMap(entry.headers, conv);
    if (headers) {
      meta.headers = moveSecrets(headers, {
        notes,
        varFor: (k) => envName(`${name}_${k}`),
        what: "header",
      });
    }
  } else {
    return { skipped: `entry "${key}" has an unknown type "${type}"` };
  }
  if (workspaceless.length > 0) {
    // A user profile runs from any directory: the directory jn happens to import from is not
    // what the entry meant, so it is not baked in (and an unset variable would be read instead).
    return {
      skipped: `entry "${key}" uses \${${
        workspaceless[0]
      }}, which means nothing in a user-level config: write the path into it, or import the project's own config with --project`,
    };
  }
  if (entry.envFile !== undefined) {
    notes.push(`"envFile" is not supported: declare its variables in "env" of @${name}`);
  }
  return { name, key, meta, notes };
}

/**
 * The editors' shapes as one: Windsurf's `serverUrl` is `url`; Zed's
 * `{"command": {"path", "args", "env"}}` is `command`, `args`, `env`.
 * Undefined for a Zed extension's settings (no command, no URL).
 */
function normalizeEntry(entry: Record<string, unknown>): Record<string, unknown> | undefined {
  const out = { ...entry };
  if (out.url === undefined && typeof out.serverUrl === "string") out.url = out.serverUrl;
  const command = out.command;
  if (isPlainObject(command)) {
    out.command = command.path;
    if (out.args === undefined) out.args = command.args;
    if (out.env === undefined) out.env = command.env;
  }
  const extension = out.source === "extension" ||
    (out.command === undefined && out.url === undefined && out.settings !== undefined);
  return extension ? undefined : out;
}

function convertVariables(
  text: string,
  ctx: ImportContext,
  notes: string[],
  workspaceless: string[],
): string {
  return text.replace(/\$\{([^}]*)\}/g, (whole, body: string) => {
    if (body.startsWith("env:")) return `\${${body.slice(4)}}`;
    if (body === "userHome" && ctx.home) return ctx.home;
    if (body === "workspaceFolder" || body === "workspaceRoot") {
      if (ctx.location.workspace === undefined) {
        workspaceless.push(body);
        return whole;
      }
      return ctx.location.workspace;
    }
    if (body === "pathSeparator") return "/";
    if (body.startsWith("input:")) {
      const variable = envName(body.slice(6));
      notes.push(
        `set ${variable}: VS Code asked for input "${body.slice(6)}", jn reads \$${variable}`,
      );
      return `\${${variable}}`;
    }
    return whole;
  });
}

function stringMap(
  value: unknown,
  conv: (text: string) => string,
): Record<string, string> | undefined {
  if (!isPlainObject(value)) return undefined;
  const out: Record<string, string> = {};
  for (const [key, item] of Object.entries(value)) {
    if (item === null || item === undefined) continue;
    out[key] = conv(typeof item === "string" ? item : String(item));
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** `my server/1` → `my-server-1`: a valid profile name. */
export function profileNameFor(key: string): string {
  const name = key.trim().replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^[.]+/, "");
  return SERVER_NAME.test(name) ? name : "server";
}
