/**
 * Where editors and AI clients keep their MCP server configs, per OS, and
 * under which key (`mcpServers`, or VS Code's `servers` / `mcp.servers`).
 * Pure: paths are computed from the environment map and the working
 * directory given; nothing is read here.
 *
 * @module
 */

import { join } from "node:path";
import { homeDir } from "./layers.ts";

/** The editors `jn profile import` knows by name. */
export type EditorName = "claude" | "cursor" | "vscode";

/** Which part of a config file holds the servers. */
export type ServersKey =
  | "mcpServers"
  | "servers"
  | "mcp.servers"
  /** `~/.claude.json`: `mcpServers`, plus `projects[CWD].mcpServers`. */
  | "claude-code";

/** One config file that may hold servers. */
export interface ConfigLocation {
  /** What it is, for messages: `Claude Desktop`, `Cursor (project)`. */
  label: string;
  path: string;
  key: ServersKey;
  /** The folder VS Code/Cursor mean by `${workspaceFolder}` (project configs only). */
  workspace?: string;
}

/** Options of {@linkcode editorConfigs}. */
export interface EditorPathOptions {
  env: Record<string, string>;
  cwd: string;
  /** The OS (default: this one). */
  os?: typeof Deno.build.os;
}

/** The config files an editor may have, most specific (project) first. */
export function editorConfigs(editor: EditorName, options: EditorPathOptions): ConfigLocation[] {
  const home = homeDir(options.env);
  const os = options.os ?? Deno.build.os;
  const appData = appDataDir(os, options.env, home);
  const out: ConfigLocation[] = [];
  const add = (label: string, path: string | undefined, key: ServersKey, workspace?: string) => {
    if (path !== undefined) out.push({ label, path, key, ...(workspace ? { workspace } : {}) });
  };
  switch (editor) {
    case "claude":
      add("Claude Code (project .mcp.json)", join(options.cwd, ".mcp.json"), "mcpServers");
      add(
        "Claude Code (~/.claude.json)",
        home && join(home, ".claude.json"),
        "claude-code",
        options.cwd,
      );
      add(
        "Claude Desktop",
        appData && join(appData, "Claude", "claude_desktop_config.json"),
        "mcpServers",
      );
      break;
    case "cursor":
      add("Cursor (project)", join(options.cwd, ".cursor", "mcp.json"), "mcpServers", options.cwd);
      add("Cursor (user)", home && join(home, ".cursor", "mcp.json"), "mcpServers");
      break;
    case "vscode":
      add("VS Code (workspace)", join(options.cwd, ".vscode", "mcp.json"), "servers", options.cwd);
      add(
        "VS Code (user mcp.json)",
        appData && join(appData, "Code", "User", "mcp.json"),
        "servers",
      );
      add(
        "VS Code (user settings)",
        appData && join(appData, "Code", "User", "settings.json"),
        "mcp.servers",
      );
      break;
    default: {
      const never: never = editor;
      throw new Error(`Unknown editor ${never}`);
    }
  }
  return out;
}

/** The per-user application config directory: Application Support, %APPDATA%, or XDG. */
function appDataDir(
  os: typeof Deno.build.os,
  env: Record<string, string>,
  home: string | undefined,
): string | undefined {
  if (os === "darwin") return home && join(home, "Library", "Application Support");
  if (os === "windows") return env.APPDATA || (home && join(home, "AppData", "Roaming"));
  return env.XDG_CONFIG_HOME || (home && join(home, ".config"));
}
