/**
 * Importing profiles from editors' MCP configs, as a verb: the entries of
 * `claude`, `cursor`, `vscode`, `windsurf`, `zed` (each editor's user and
 * project configs) or of a FILE become profiles. Planned first
 * ({@linkcode planProfileImport}: read, converted, checked, nothing
 * written), then written ({@linkcode writeImport}, or both at once with
 * {@linkcode importProfiles}).
 *
 * Guarantees: the user's own configs go to the user layer; a project's
 * config (it came with the directory) goes to the project layer, untrusted,
 * and only with `project`: without it, its entries are `held` (named, not
 * written); a FILE goes where `project` says. An existing profile is kept
 * unless `force`. Nothing found, or only held entries, is a ConfigError
 * (exit 3) before anything is written. Entry names and notes come from
 * files jn did not write: a caller shows them with control characters made
 * visible.
 *
 * @module
 */

import { join, resolve } from "node:path";
import { ConfigError } from "../errors.ts";
import { visibleLine } from "../output/visible.ts";
import {
  type ConfigLocation,
  EDITOR_NAMES,
  editorConfigs,
  type EditorName,
} from "../profile/edit/import_paths.ts";
import { type ImportPlan, planImport, type PlannedImport } from "../profile/edit/import_plan.ts";
import { readImportConfigs } from "../profile/edit/import_read.ts";
import { writeProfileDir } from "../profile/edit/write.ts";
import { homeDir, layerRoot } from "../profile/layers.ts";
import { describeLaunch } from "../profile/trust.ts";
import type { ProfilePlace } from "./profile_create.ts";

export type { ImportPlan, PlannedImport } from "../profile/edit/import_plan.ts";
export type { ConfigLocation } from "../profile/edit/import_paths.ts";

/** Options of {@linkcode planProfileImport}. */
export interface ImportOptions extends ProfilePlace {
  /** Import a project's entries (and a FILE) into the project layer. */
  project?: boolean;
}

/** A plan, with where it looked. */
export interface ProfileImportPlan extends ImportPlan {
  /** The configs read (an editor's, or the FILE). */
  locations: ConfigLocation[];
}

/** What {@linkcode writeImport} did with one planned import. */
export interface ImportResult {
  /** The import, as planned. */
  planned: PlannedImport;
  /** The profile's directory. */
  dir: string;
  /** False when a profile of that name was there and kept (no `force`). */
  written: boolean;
  /** What it launches, in one line (control characters made visible). */
  launch: string;
}

/**
 * Reads and plans the import of `source` (an editor's name or a FILE):
 * nothing is written. `notices` say which entries were skipped and why.
 */
export async function planProfileImport(
  source: string,
  options: ImportOptions,
): Promise<ProfileImportPlan> {
  const locations = configLocations(source, options);
  const configs = await readImportConfigs(locations);
  const plan = planImport(locations, configs, {
    project: options.project === true,
    home: homeDir(options.env),
    cwd: options.cwd,
  });
  return { ...plan, locations };
}

/**
 * A ConfigError when a plan has nothing to write: no entries at all, or only
 * a project's, held back without `project`.
 */
export function checkImportPlan(source: string, plan: ProfileImportPlan): void {
  if (plan.imports.length === 0 && plan.held.length === 0) {
    throw new ConfigError(`No MCP servers found for "${source}"`, {
      hint: `looked in: ${plan.locations.map((l) => l.path).join(", ")}`,
    });
  }
  if (plan.held.length === 0 || plan.imports.length > 0) return;
  throw new ConfigError(
    `Only project-scoped MCP servers found for "${source}": ${heldNames(plan)}`,
    {
      hint: `they came with this directory: review them, then run: jn profile import ${
        /\s/.test(source) ? `"${source}"` : source
      } --project (and jn profile trust @NAME)`,
    },
  );
}

/** The held entries, `@name (where)`, control characters made visible. */
export function heldNames(plan: ImportPlan): string {
  return visibleLine(plan.held.map((p) => `@${p.server.name} (${p.location.label})`).join(", "));
}

/** Writes one planned import (an existing profile is kept unless `force`). */
export async function writeImport(
  planned: PlannedImport,
  options: ProfilePlace & { force?: boolean },
): Promise<ImportResult> {
  const { server, layer } = planned;
  const root = layerRoot(layer, options);
  if (root === undefined) {
    throw new ConfigError("Cannot find your user profile directory: HOME is not set", {
      hint: "set HOME, or import into the project with --project",
    });
  }
  const dir = join(root, server.name);
  const launch = describeLaunch(server.meta);
  const exists = await Deno.stat(dir).then(() => true, () => false);
  if (exists && !options.force) return { planned, dir, written: false, launch };
  await writeProfileDir(dir, { meta: server.meta, tools: new Map() }, {
    force: options.force,
    label: `@${server.name}`,
    project: layer === "project" ? options.cwd : undefined,
  });
  return { planned, dir, written: true, launch };
}

/**
 * Plans, checks and writes the import of `source` (see the module doc).
 *
 * @example
 * ```ts ignore
 * import { importProfiles } from "@jn/jn/profile";
 *
 * const { results, plan } = await importProfiles("claude", {
 *   cwd: Deno.cwd(),
 *   env: Deno.env.toObject(),
 * });
 * for (const { planned, written } of results) console.log(planned.server.name, written);
 * console.log(plan.held.length, "held back: they came with this directory");
 * ```
 */
export async function importProfiles(
  source: string,
  options: ImportOptions & { force?: boolean },
): Promise<{ plan: ProfileImportPlan; results: ImportResult[] }> {
  const plan = await planProfileImport(source, options);
  checkImportPlan(source, plan);
  const results: ImportResult[] = [];
  for (const planned of plan.imports) results.push(await writeImport(planned, options));
  return { plan, results };
}

function configLocations(source: string, options: ImportOptions): ConfigLocation[] {
  if ((EDITOR_NAMES as readonly string[]).includes(source)) {
    return editorConfigs(source as EditorName, options);
  }
  return [{
    label: "file",
    path: resolve(options.cwd, source),
    key: "mcpServers",
    // A file the user names goes where the user says.
    scope: options.project ? "project" : "user",
  }];
}
