/**
 * `jn profile import claude|claude-code|cursor|vscode|windsurf|zed|FILE [--project]
 * [--force] [--dry-run]`: turn the MCP server entries of editors' configs
 * into profiles. The user's own configs go to the user layer; a project's
 * config (it came with the directory) goes to the project layer, untrusted,
 * and only with `--project`: without it, its entries are listed and skipped
 * (see lib/profile/import_plan.ts). A FILE goes where the flags say: the user
 * layer, or the project layer with `--project`. Where each profile went, and
 * every note, is said on stderr, with control characters made visible (entry
 * names come from files jn did not write). An existing profile is kept
 * unless `--force`.
 *
 * @module
 */

import { join, resolve } from "node:path";
import { ConfigError } from "../../errors.ts";
import {
  type ConfigLocation,
  EDITOR_NAMES,
  editorConfigs,
  type EditorName,
} from "../../profile/edit/import_paths.ts";
import { type ImportPlan, planImport, type PlannedImport } from "../../profile/edit/import_plan.ts";
import { readImportConfigs } from "../../profile/edit/import_read.ts";
import { homeDir, layerRoot } from "../../profile/layers.ts";
import { describeLaunch } from "../../profile/trust.ts";
import { visibleLine } from "../../output/visible.ts";
import { writeProfileDir } from "../../profile/edit/write.ts";
import { printErr } from "../io.ts";
import type { Cli } from "../context.ts";
import type { Invocation } from "../table/command.ts";
import type { PROFILE_IMPORT } from "../table/commands.ts";
import { writeJson } from "../write.ts";

type ImportFlags = Invocation<typeof PROFILE_IMPORT>["options"];

/** `jn profile import EDITOR|FILE`. */
export async function run(cli: Cli, call: Invocation<typeof PROFILE_IMPORT>): Promise<void> {
  const { source } = call.args;
  const flags = call.options;
  const locations = configLocations(cli, source, flags);
  const configs = await readImportConfigs(locations);
  const plan = planImport(locations, configs, {
    project: flags.project === true,
    home: homeDir(cli.io.env),
    cwd: cli.io.cwd,
  });
  for (const notice of plan.notices) await printErr(cli.io, `jn: ${visibleLine(notice)}`);
  if (plan.imports.length === 0 && plan.held.length === 0) {
    throw new ConfigError(`No MCP servers found for "${source}"`, {
      hint: `looked in: ${locations.map((l) => l.path).join(", ")}`,
    });
  }
  refuseOnlyHeld(source, plan);
  if (flags.dryRun) {
    await writeJson(
      cli.io,
      plan.imports.map(({ server, location, layer }) => ({
        ...server,
        layer,
        from: location.path,
      })),
    );
  } else {
    for (const planned of plan.imports) await write(cli, planned, flags);
  }
  await reportHeld(cli, plan);
}

function configLocations(cli: Cli, source: string, flags: ImportFlags): ConfigLocation[] {
  const options = { env: cli.io.env, cwd: cli.io.cwd };
  if ((EDITOR_NAMES as readonly string[]).includes(source)) {
    return editorConfigs(source as EditorName, options);
  }
  return [{
    label: "file",
    path: resolve(cli.io.cwd, source),
    key: "mcpServers",
    // A file the user names goes where the user says.
    scope: flags.project ? "project" : "user",
  }];
}

/** Refuses (exit 3) when the only entries found are project-scoped ones held back. */
function refuseOnlyHeld(source: string, plan: ImportPlan): void {
  if (plan.held.length === 0 || plan.imports.length > 0) return;
  throw new ConfigError(
    `Only project-scoped MCP servers found for "${source}": ${visibleLine(heldNames(plan))}`,
    {
      hint: `they came with this directory: review them, then run: jn profile import ${
        /\s/.test(source) ? `"${source}"` : source
      } --project (and jn profile trust @NAME)`,
    },
  );
}

/** Lists the project-scoped entries that were not imported. */
async function reportHeld(cli: Cli, plan: ImportPlan): Promise<void> {
  if (plan.held.length === 0) return;
  const one = plan.held.length === 1;
  await printErr(
    cli.io,
    `jn: not imported: ${visibleLine(heldNames(plan))} came with this directory, not from you; ` +
      `add --project to import ${one ? "it" : "them"} into .jn/profiles/mcp/, ` +
      `where ${one ? "it launches" : "they launch"} nothing until jn profile trust`,
  );
}

function heldNames(plan: ImportPlan): string {
  return plan.held.map((p) => `@${p.server.name} (${p.location.label})`).join(", ");
}

async function write(cli: Cli, planned: PlannedImport, flags: ImportFlags): Promise<void> {
  const { server, location, layer } = planned;
  const root = layerRoot(layer, { cwd: cli.io.cwd, env: cli.io.env });
  if (root === undefined) {
    throw new ConfigError("Cannot find your user profile directory: HOME is not set", {
      hint: "set HOME, or import into the project with --project",
    });
  }
  const dir = join(root, server.name);
  const exists = await Deno.stat(dir).then(() => true, () => false);
  if (exists && !flags.force) {
    await printErr(
      cli.io,
      `jn: warning: kept the existing @${server.name} (${dir}); --force replaces it`,
    );
    return;
  }
  await writeProfileDir(dir, { meta: server.meta, tools: new Map() }, {
    force: flags.force,
    label: `@${server.name}`,
    project: layer === "project" ? cli.io.cwd : undefined,
  });
  await printErr(
    cli.io,
    `Imported @${server.name} from ${visibleLine(location.label)}: ${
      describeLaunch(server.meta)
    } → ${dir}`,
  );
  for (const note of server.notes) {
    await printErr(cli.io, `jn: @${server.name}: ${visibleLine(note)}`);
  }
  if (layer === "project") {
    await printErr(
      cli.io,
      `jn: @${server.name} is a project profile: review ${dir}, then allow it to launch: jn profile trust @${server.name}`,
    );
  }
}
