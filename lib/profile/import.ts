/**
 * Editors' MCP server entries (Claude Desktop/Code, Cursor, VS Code) turned
 * into profiles. Pure: the caller reads the files and writes the profiles.
 *
 * - Variable references are kept as jn's `${VAR}`: `${VAR}`/`${VAR:-x}` stay,
 *   `${env:VAR}` becomes `${VAR}`, VS Code's `${input:id}` becomes `${ID}`
 *   (jn asks nothing: it reads the variable); `${userHome}` and
 *   `${workspaceFolder}` become the paths they stand for.
 * - A literal secret (an `env` value or header whose name says token, key,
 *   secret, password…, a value that looks like a known token, or the value of
 *   a `--token`/`--api-key` argument) is not copied: jn writes a `${VAR}`
 *   reference instead and reports which variable to set. The value itself is
 *   never printed.
 *
 * @module
 */

import type { ConfigLocation } from "./import_paths.ts";
import { isPlainObject } from "./fields.ts";
import { SERVER_NAME } from "./layers.ts";
import type { MetaDef } from "./types.ts";

/** One server entry converted. */
export interface ImportedServer {
  /** The profile name (the entry's key, made a valid name). */
  name: string;
  /** The entry's key in the config. */
  key: string;
  meta: MetaDef;
  /** What the user should know: variables to set, renamed entries, dropped fields. */
  notes: string[];
}

/** Context of a conversion. */
export interface ImportContext {
  location: ConfigLocation;
  /** The user's home, for `${userHome}`. */
  home?: string;
  /** The working directory, for `${workspaceFolder}` of user-level configs. */
  cwd: string;
}

const SECRET_NAME =
  /token|secret|passw(or)?d|api[-_]?key|access[-_]?key|private[-_]?key|credential|auth/i;
const SECRET_VALUE = /^(sk-|sk_|ghp_|gho_|ghs_|github_pat_|glpat-|xox[abpr]-|AKIA|AIza|ctx7sk-)/;

/** The server entries of a parsed config file, by their key. */
export function serverEntries(config: unknown, location: ConfigLocation): Record<string, unknown> {
  if (!isPlainObject(config)) return {};
  switch (location.key) {
    case "mcpServers":
    case "servers":
      return isPlainObject(config[location.key])
        ? config[location.key] as Record<string, unknown>
        : {};
    case "mcp.servers": {
      const mcp = config.mcp;
      const nested = isPlainObject(mcp) && isPlainObject(mcp.servers) ? mcp.servers : undefined;
      const flat = config["mcp.servers"];
      return (nested ?? (isPlainObject(flat) ? flat : {})) as Record<string, unknown>;
    }
    case "claude-code": {
      const user = isPlainObject(config.mcpServers) ? config.mcpServers : {};
      const projects = isPlainObject(config.projects) ? config.projects : {};
      const here = projects[location.workspace ?? ""] ?? undefined;
      const local = isPlainObject(here) && isPlainObject(here.mcpServers) ? here.mcpServers : {};
      return { ...user, ...local };
    }
  }
}

/** Any config file: whichever of `mcpServers`, `servers`, `mcp.servers` it has. */
export function guessServersKey(config: unknown): ConfigLocation["key"] | undefined {
  if (!isPlainObject(config)) return undefined;
  if (isPlainObject(config.mcpServers)) return "mcpServers";
  if (isPlainObject(config.servers)) return "servers";
  if (isPlainObject(config.mcp) && isPlainObject(config.mcp.servers)) return "mcp.servers";
  return undefined;
}

/** Converts one entry; undefined (with a note) when it is not a server jn can start. */
export function importEntry(
  key: string,
  entry: unknown,
  ctx: ImportContext,
): ImportedServer | { skipped: string } {
  const name = profileNameFor(key);
  const notes: string[] = [];
  if (name !== key) notes.push(`entry "${key}" is saved as @${name}`);
  if (!isPlainObject(entry)) return { skipped: `entry "${key}" is not an object` };
  const conv = (text: string) => convertVariables(text, ctx, notes);
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
    meta.url = conv(entry.url);
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
  if (entry.envFile !== undefined) {
    notes.push(`"envFile" is not supported: declare its variables in "env" of @${name}`);
  }
  return { name, key, meta, notes };
}

function convertVariables(text: string, ctx: ImportContext, notes: string[]): string {
  return text.replace(/\$\{([^}]*)\}/g, (whole, body: string) => {
    if (body.startsWith("env:")) return `\${${body.slice(4)}}`;
    if (body === "userHome" && ctx.home) return ctx.home;
    if (body === "workspaceFolder" || body === "workspaceRoot") {
      const dir = ctx.location.workspace ?? ctx.cwd;
      if (!ctx.location.workspace) notes.push(`\${${body}} is taken as ${dir}`);
      return dir;
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

function moveSecrets(
  map: Record<string, string>,
  options: { notes: string[]; varFor: (key: string) => string; what: string },
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(map)) {
    const secret = !value.includes("${") && value !== "" &&
      (SECRET_NAME.test(key) || SECRET_VALUE.test(value.replace(/^(Bearer|Basic|token)\s+/i, "")));
    if (!secret) {
      out[key] = value;
      continue;
    }
    const variable = options.varFor(key);
    const scheme = /^(Bearer|Basic|token)\s+/i.exec(value)?.[0] ?? "";
    out[key] = `${scheme}\${${variable}}`;
    options.notes.push(
      `set ${variable} before use: the literal value of ${options.what} "${key}" stays in the config, jn did not copy it`,
    );
  }
  return out;
}

function moveArgSecrets(args: string[], server: string, notes: string[]): string[] {
  const replace = (label: string, variable: string) => {
    notes.push(
      `set ${variable} before use: the literal value of argument ${label} stays in the config, jn did not copy it`,
    );
    return `\${${variable}}`;
  };
  return args.map((arg, i) => {
    if (arg.includes("${")) return arg;
    const inline = /^(--?[A-Za-z0-9-]+)=(.+)$/.exec(arg);
    if (inline) {
      const [, flag, value] = inline;
      if (!SECRET_NAME.test(flag) && !SECRET_VALUE.test(value)) return arg;
      return `${flag}=${replace(flag, envName(`${server}_${flag}`))}`;
    }
    if (arg.startsWith("-")) return arg;
    const previous = i > 0 ? args[i - 1] : "";
    if (/^--?[A-Za-z0-9-]+$/.test(previous) && SECRET_NAME.test(previous)) {
      return replace(previous, envName(`${server}_${previous}`));
    }
    return SECRET_VALUE.test(arg) ? replace(String(i + 1), envName(`${server}_arg_${i + 1}`)) : arg;
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

/** `context7 api-key` → `CONTEXT7_API_KEY`. */
export function envName(text: string): string {
  const name = text.replace(/[^A-Za-z0-9]+/g, "_").replace(/^_+|_+$/g, "").toUpperCase();
  return /^[0-9]/.test(name) ? `_${name}` : name || "SECRET";
}
