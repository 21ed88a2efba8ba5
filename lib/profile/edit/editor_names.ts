/**
 * The MCP hosts (editors and AI clients) jn knows by name, in the order
 * help lists them: the one list, read by the path table (import_paths.ts)
 * that `jn profile import` reads entries from and `jn host add` writes them
 * to, and by the CLI's command table. Pure data, so that the CLI can read it
 * at start-up.
 *
 * `claude` is Claude Desktop; `claude-code` is Claude Code. `profile import
 * claude` reads both (Claude Code's scopes, then Claude Desktop), as it
 * always has; `host add claude` writes Claude Desktop's file.
 *
 * @module
 */

/** Every editor name, in the order help text lists them. */
export const EDITOR_NAMES = [
  "claude",
  "claude-code",
  "cursor",
  "vscode",
  "windsurf",
  "zed",
] as const;

/** An editor (MCP host) jn knows by name. */
export type EditorName = typeof EDITOR_NAMES[number];
