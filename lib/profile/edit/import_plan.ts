/**
 * Which editor entries `jn profile import` writes, and where. Pure: the
 * caller reads the config files (in the editor's order of precedence, see
 * import_paths.ts) and writes the profiles.
 *
 * - An entry of a `user` config (the user's own file) goes to the user layer.
 * - An entry of a `project` config (it came with the directory: a cloned
 *   repository's `.mcp.json`) goes to the project layer, where it launches
 *   nothing until `jn profile trust`, and only with `--project`; without it
 *   the entry is held back and listed. A repository's config never becomes
 *   the user's own by an import.
 * - Precedence follows the editor: the first entry of a name wins its layer;
 *   a project entry is also skipped when a higher-precedence entry of the
 *   user has the name (Claude Code's local scope beats `.mcp.json`).
 * - Switched-off entries (`"disabled": true`, `"enabled": false`, Claude
 *   Code's `disabledMcpServers`/`disabledMcpjsonServers`) are not imported.
 *
 * @module
 */

import { disabledNames, type ImportedServer, importEntry, serverEntries } from "./import.ts";
import type { ConfigLocation } from "./import_paths.ts";
import { checkProfileFiles } from "./seed_format.ts";

/** One entry to import. */
export interface PlannedImport {
  /** The entry, converted. */
  server: ImportedServer;
  /** The config it came from. */
  location: ConfigLocation;
  /** The layer it goes to. */
  layer: "user" | "project";
}

/** What an import does. */
export interface ImportPlan {
  /** Entries to write. */
  imports: PlannedImport[];
  /** Project-scoped entries not written because `--project` was not given. */
  held: PlannedImport[];
  /** One line per entry skipped, and why (no `jn:` prefix; untrusted text not yet escaped). */
  notices: string[];
}

/** Options of {@linkcode planImport}. */
export interface PlanOptions {
  /** `--project`: write project-scoped entries to the project layer. */
  project: boolean;
  /** The user's home (`${userHome}`). */
  home?: string;
  /** The working directory (`${workspaceFolder}` of user configs). */
  cwd: string;
}

/** Plans an import from configs read at `locations` (path → parsed value; absent files missing). */
export function planImport(
  locations: readonly ConfigLocation[],
  configs: ReadonlyMap<string, unknown>,
  options: PlanOptions,
): ImportPlan {
  const plan: ImportPlan = { imports: [], held: [], notices: [] };
  const anyLayer = new Map<string, PlannedImport>();
  const userLayer = new Map<string, PlannedImport>();
  for (const location of locations) {
    if (!configs.has(location.path)) continue;
    const config = configs.get(location.path);
    const off = disabledNames(
      location,
      location.disabledIn && configs.get(location.disabledIn.path),
    );
    for (const [key, entry] of Object.entries(serverEntries(config, location))) {
      const where = `${location.label} (${location.path})`;
      if (off.has(key)) {
        plan.notices.push(
          `skipped "${key}" of ${where}: switched off in Claude Code (${location.disabledIn?.key})`,
        );
        continue;
      }
      const result = importEntry(key, entry, { location, home: options.home, cwd: options.cwd });
      if ("skipped" in result) {
        plan.notices.push(
          result.disabled
            ? `skipped ${result.skipped} in ${where}: not imported`
            : `warning: skipped ${result.skipped} in ${where}`,
        );
        continue;
      }
      const layer = location.scope;
      const higher = layer === "project" ? anyLayer.get(result.name) : userLayer.get(result.name);
      if (higher !== undefined) {
        plan.notices.push(
          `skipped "${key}" of ${location.label}: @${result.name} comes from ${higher.location.label}`,
        );
        continue;
      }
      checkProfileFiles({ meta: result.meta, tools: new Map() }, `${location.path} ("${key}")`);
      const planned: PlannedImport = { server: result, location, layer };
      if (!anyLayer.has(result.name)) anyLayer.set(result.name, planned);
      if (layer === "user") userLayer.set(result.name, planned);
      if (layer === "project" && !options.project) plan.held.push(planned);
      else plan.imports.push(planned);
    }
  }
  return plan;
}
