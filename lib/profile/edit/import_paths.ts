/**
 * Where editors and AI clients keep their MCP server configs, per OS, under
 * which key, in each editor's own order of precedence, and whose they are:
 * a `project` config comes with the directory (a cloned repository may have
 * written it), a `user` config is the user's own. Pure: paths are computed
 * from the environment map and the working directory given; nothing is read
 * here.
 *
 * | editor     | precedence, highest first                                                                 |
 * |------------|-------------------------------------------------------------------------------------------|
 * | `claude`   | Claude Code local scope (`~/.claude.json` `projects[cwd]`), project `.mcp.json`, user scope (`~/.claude.json`), then Claude Desktop |
 * | `cursor`   | `.cursor/mcp.json` (project), `~/.cursor/mcp.json`                                         |
 * | `vscode`   | `.vscode/mcp.json` (workspace), user `mcp.json`, user `settings.json` (`mcp.servers`)      |
 * | `windsurf` | `~/.codeium/windsurf/mcp_config.json` (Windsurf has no project config)                     |
 * | `zed`      | `.zed/settings.json` (project), the user `settings.json` (`context_servers`)               |
 *
 * @module
 */

import { join } from "node:path";
import { homeDir } from "../layers.ts";
import { EDITOR_NAMES, type EditorName } from "./editor_names.ts";

export { EDITOR_NAMES, type EditorName };

/** Which part of a config file holds the servers. */
export type ServersKey =
  | "mcpServers"
  | "servers"
  | "mcp.servers"
  /** Zed's `settings.json`. */
  | "context_servers"
  /** `~/.claude.json`: `projects[workspace].mcpServers` (Claude Code's local scope). */
  | "claude-local";

/** Whose a config file is. */
export type ConfigScope = "project" | "user";

/** One config file that may hold servers. */
export interface ConfigLocation {
  /** What it is, for messages: `Claude Desktop`, `Cursor (project)`. */
  label: string;
  /** The config file. */
  path: string;
  /** The key its server entries are under (`mcpServers`, `servers`, …). */
  key: ServersKey;
  /** `project`: it comes with the directory; `user`: the user's own. */
  scope: ConfigScope;
  /** The folder `${workspaceFolder}` means, and the key of Claude Code's `projects` map. */
  workspace?: string;
  /**
   * Claude Code: where the user switched entries of this file off, as a list
   * of names at `projects[workspace][key]` of that file.
   */
  disabledIn?: { path: string; key: "disabledMcpServers" | "disabledMcpjsonServers" };
}

/** Options of {@linkcode editorConfigs}. */
export interface EditorPathOptions {
  env: Record<string, string>;
  cwd: string;
  /** The OS (default: this one). */
  os?: typeof Deno.build.os;
}

/** The config files an editor may have, highest precedence first. */
export function editorConfigs(editor: EditorName, options: EditorPathOptions): ConfigLocation[] {
  const home = homeDir(options.env);
  const os = options.os ?? Deno.build.os;
  const appData = appDataDir(os, options.env, home);
  const cwd = options.cwd;
  const out: ConfigLocation[] = [];
  const add = (location: Omit<ConfigLocation, "path">, path: string | undefined) => {
    if (path !== undefined) out.push({ ...location, path });
  };
  switch (editor) {
    case "claude": {
      const claudeJson = home && join(home, ".claude.json");
      const disabledIn = (key: "disabledMcpServers" | "disabledMcpjsonServers") =>
        claudeJson === undefined ? {} : { disabledIn: { path: claudeJson, key } };
      add({
        label: "Claude Code (local scope, ~/.claude.json)",
        key: "claude-local",
        scope: "user",
        workspace: cwd,
        ...disabledIn("disabledMcpServers"),
      }, claudeJson);
      add({
        label: "Claude Code (project scope, .mcp.json)",
        key: "mcpServers",
        scope: "project",
        workspace: cwd,
        ...disabledIn("disabledMcpjsonServers"),
      }, join(cwd, ".mcp.json"));
      add({
        label: "Claude Code (user scope, ~/.claude.json)",
        key: "mcpServers",
        scope: "user",
        workspace: cwd,
        ...disabledIn("disabledMcpServers"),
      }, claudeJson);
      add(
        { label: "Claude Desktop", key: "mcpServers", scope: "user" },
        appData && join(appData, "Claude", "claude_desktop_config.json"),
      );
      break;
    }
    case "cursor":
      add(
        { label: "Cursor (project)", key: "mcpServers", scope: "project", workspace: cwd },
        join(cwd, ".cursor", "mcp.json"),
      );
      add(
        { label: "Cursor (user)", key: "mcpServers", scope: "user" },
        home && join(home, ".cursor", "mcp.json"),
      );
      break;
    case "vscode":
      add(
        { label: "VS Code (workspace)", key: "servers", scope: "project", workspace: cwd },
        join(cwd, ".vscode", "mcp.json"),
      );
      add(
        { label: "VS Code (user mcp.json)", key: "servers", scope: "user" },
        appData && join(appData, "Code", "User", "mcp.json"),
      );
      add(
        { label: "VS Code (user settings)", key: "mcp.servers", scope: "user" },
        appData && join(appData, "Code", "User", "settings.json"),
      );
      break;
    case "windsurf":
      // The same place on every OS (%USERPROFILE%\.codeium\windsurf on Windows).
      add(
        { label: "Windsurf", key: "mcpServers", scope: "user" },
        home && join(home, ".codeium", "windsurf", "mcp_config.json"),
      );
      break;
    case "zed": {
      const zed = zedConfigDir(os, options.env, home, appData);
      add(
        { label: "Zed (project)", key: "context_servers", scope: "project", workspace: cwd },
        join(cwd, ".zed", "settings.json"),
      );
      add(
        { label: "Zed (user)", key: "context_servers", scope: "user" },
        zed && join(zed, "settings.json"),
      );
      break;
    }
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

/** Zed's config directory: `%APPDATA%\Zed`, the (Flatpak) XDG config dir on Linux, else `~/.config/zed`. */
function zedConfigDir(
  os: typeof Deno.build.os,
  env: Record<string, string>,
  home: string | undefined,
  appData: string | undefined,
): string | undefined {
  if (os === "windows") return appData && join(appData, "Zed");
  if (os === "linux") {
    const base = env.FLATPAK_XDG_CONFIG_HOME || env.XDG_CONFIG_HOME ||
      (home && join(home, ".config"));
    return base && join(base, "zed");
  }
  return home && join(home, ".config", "zed");
}
