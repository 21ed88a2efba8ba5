/**
 * The editors `jn profile import` knows by name, in the order help lists
 * them: the one list, read by the importer's path table
 * (import_paths.ts) and by the CLI's command table. Pure data, so that the
 * CLI can read it at start-up.
 *
 * @module
 */

/** Every editor name, in the order help text lists them. */
export const EDITOR_NAMES = ["claude", "cursor", "vscode", "windsurf", "zed"] as const;

/** The editors `jn profile import` knows by name. */
export type EditorName = typeof EDITOR_NAMES[number];
