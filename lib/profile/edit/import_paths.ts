/**
 * Where editors and AI clients keep their MCP server configs, per OS, under
 * which key, in each editor's own order of precedence, and whose they are:
 * a `project` config comes with the directory (a cloned repository may have
 * written it), a `user` config is the user's own. Pure: paths are computed
 * from the environment map and the working directory given; nothing is read
 * here.
 *
 * | editor        | precedence, highest first                                                              |
 * |---------------|----------------------------------------------------------------------------------------|
 * | `claude-code` | local scope (`~/.claude.json` `projects[cwd]`), project `.mcp.json`, user scope (`~/.claude.json`) |
 * | `claude`      | Claude Code's three (import only), then Claude Desktop (`claude_desktop_config.json`)   |
 * | `cursor`      | `.cursor/mcp.json` (project), `~/.cursor/mcp.json`                                      |
 * | `vscode`      | `.vscode/mcp.json` (workspace), user `mcp.json`, user `settings.json` (`mcp.servers`)   |
 * | `windsurf`    | `~/.codeium/windsurf/mcp_config.json` (Windsurf has no project config)                  |
 * | `zed`         | `.zed/settings.json` (project), the user `settings.json` (`context_servers`)            |
 *
 * Each location names the host it belongs to (`host`), and `writes` marks
 * the one file per host and scope that `jn host add` writes (the project
 * file with `--project`): Claude Code's user scope (not its local scope),
 * VS Code's user `mcp.json` (not the older `settings.json` key).
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
  /** The host whose file it is (`claude` is Claude Desktop). */
  host?: EditorName;
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
  /** The file `jn host add` writes for its host and scope. */
  writes?: true;
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
  const claudeCode = () => {
    const host = "claude-code";
    const claudeJson = home && join(home, ".claude.json");
    const disabledIn = (key: "disabledMcpServers" | "disabledMcpjsonServers") =>
      claudeJson === undefined ? {} : { disabledIn: { path: claudeJson, key } };
    add({
      host,
      label: "Claude Code (local scope, ~/.claude.json)",
      key: "claude-local",
      scope: "user",
      workspace: cwd,
      ...disabledIn("disabledMcpServers"),
    }, claudeJson);
    add({
      host,
      label: "Claude Code (project scope, .mcp.json)",
      key: "mcpServers",
      scope: "project",
      workspace: cwd,
      ...disabledIn("disabledMcpjsonServers"),
      writes: true,
    }, join(cwd, ".mcp.json"));
    add({
      host,
      label: "Claude Code (user scope, ~/.claude.json)",
      key: "mcpServers",
      scope: "user",
      workspace: cwd,
      ...disabledIn("disabledMcpServers"),
      writes: true,
    }, claudeJson);
  };
  switch (editor) {
    case "claude-code":
      claudeCode();
      break;
    case "claude":
      // What `profile import claude` has always read: Claude Code's scopes, then Claude Desktop.
      claudeCode();
      add(
        { host: "claude", label: "Claude Desktop", key: "mcpServers", scope: "user", writes: true },
        appData && join(appData, "Claude", "claude_desktop_config.json"),
      );
      break;
    case "cursor":
      add({
        host: "cursor",
        label: "Cursor (project)",
        key: "mcpServers",
        scope: "project",
        workspace: cwd,
        writes: true,
      }, join(cwd, ".cursor", "mcp.json"));
      add(
        { host: "cursor", label: "Cursor (user)", key: "mcpServers", scope: "user", writes: true },
        home && join(home, ".cursor", "mcp.json"),
      );
      break;
    case "vscode":
      add({
        host: "vscode",
        label: "VS Code (workspace)",
        key: "servers",
        scope: "project",
        workspace: cwd,
        writes: true,
      }, join(cwd, ".vscode", "mcp.json"));
      add(
        {
          host: "vscode",
          label: "VS Code (user mcp.json)",
          key: "servers",
          scope: "user",
          writes: true,
        },
        appData && join(appData, "Code", "User", "mcp.json"),
      );
      add(
        { host: "vscode", label: "VS Code (user settings)", key: "mcp.servers", scope: "user" },
        appData && join(appData, "Code", "User", "settings.json"),
      );
      break;
    case "windsurf":
      // The same place on every OS (%USERPROFILE%\.codeium\windsurf on Windows).
      add(
        { host: "windsurf", label: "Windsurf", key: "mcpServers", scope: "user", writes: true },
        home && join(home, ".codeium", "windsurf", "mcp_config.json"),
      );
      break;
    case "zed": {
      const zed = zedConfigDir(os, options.env, home, appData);
      add({
        host: "zed",
        label: "Zed (project)",
        key: "context_servers",
        scope: "project",
        workspace: cwd,
        writes: true,
      }, join(cwd, ".zed", "settings.json"));
      add(
        { host: "zed", label: "Zed (user)", key: "context_servers", scope: "user", writes: true },
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

/**
 * The config files of one host (Claude Desktop's alone for `claude`), in
 * its order of precedence: what `jn host list` reads and `jn host remove`
 * edits.
 */
export function hostConfigs(host: EditorName, options: EditorPathOptions): ConfigLocation[] {
  return editorConfigs(host, options).filter((location) => location.host === host);
}

/** The file `jn host add` writes for a host and scope, or undefined when the host has none. */
export function hostTarget(
  host: EditorName,
  scope: ConfigScope,
  options: EditorPathOptions,
): ConfigLocation | undefined {
  return hostConfigs(host, options).find((location) => location.writes && location.scope === scope);
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
