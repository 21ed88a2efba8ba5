/**
 * `jn profile import claude|cursor|vscode|FILE [--project] [--force]
 * [--dry-run]`: turn the MCP server entries of editors' configs into
 * profiles (see lib/profile/import.ts for what is converted and how literal
 * secrets are handled). An existing profile is kept unless `--force`; the
 * first config that names a server wins.
 *
 * @module
 */

import type { Command } from "commander";
import { join, resolve } from "node:path";
import { ConfigError } from "../../errors.ts";
import {
  guessServersKey,
  type ImportedServer,
  importEntry,
  serverEntries,
} from "../../profile/import.ts";
import { type ConfigLocation, editorConfigs, type EditorName } from "../../profile/import_paths.ts";
import { homeDir, layerRoot } from "../../profile/layers.ts";
import { parseJsonc } from "../../profile/load.ts";
import { checkProfileFiles } from "../../profile/seed_format.ts";
import { describeLaunch } from "../../profile/trust.ts";
import { writeProfileDir } from "../../profile/write.ts";
import { printErr } from "../io.ts";
import type { Ctx } from "../main.ts";
import { writeJson } from "../write.ts";
import { writeText } from "./profile_common.ts";

const EDITORS: readonly EditorName[] = ["claude", "cursor", "vscode"];

interface ImportFlags {
  project?: boolean;
  force?: boolean;
  dryRun?: boolean;
}

/** Registers `profile import`. */
export function registerProfileImport(profile: Command, ctx: Ctx): void {
  profile.command("import")
    .description("turn editors' MCP server entries into profiles: claude, cursor, vscode or FILE")
    .argument("<source>", "claude, cursor, vscode, or a JSON(C) file with mcpServers/servers")
    .option("--project", "write them to .jn/profiles/mcp/ in this directory")
    .option("--force", "replace existing profiles of the same names")
    .option("--dry-run", "print the profiles as JSON, write nothing")
    .action(async (source: string, flags: ImportFlags) => {
      const locations = configLocations(ctx, source);
      const found = await collect(ctx, locations);
      if (found.length === 0) {
        throw new ConfigError(`No MCP servers found for "${source}"`, {
          hint: `looked in: ${locations.map((l) => l.path).join(", ")}`,
        });
      }
      if (flags.dryRun) {
        await writeJson(
          ctx,
          found.map(({ server, location }) => ({ ...server, from: location.path })),
        );
        return;
      }
      await write(ctx, found, flags);
    });
}

function configLocations(ctx: Ctx, source: string): ConfigLocation[] {
  const options = { env: ctx.io.env, cwd: ctx.io.cwd };
  if ((EDITORS as string[]).includes(source)) return editorConfigs(source as EditorName, options);
  return [{ label: "file", path: resolve(ctx.io.cwd, source), key: "mcpServers" }];
}

interface Found {
  server: ImportedServer;
  location: ConfigLocation;
}

async function collect(ctx: Ctx, locations: ConfigLocation[]): Promise<Found[]> {
  const found = new Map<string, Found>();
  const single = locations.length === 1 && locations[0].label === "file";
  for (const location of locations) {
    let text: string;
    try {
      text = await Deno.readTextFile(location.path);
    } catch (error) {
      if (single || !(error instanceof Deno.errors.NotFound)) {
        throw new ConfigError(`Cannot read ${location.path}: ${(error as Error).message}`, {
          path: location.path,
        });
      }
      continue;
    }
    const config = parseJsonc(text, location.path).value;
    const key = single ? guessServersKey(config) : location.key;
    if (key === undefined) {
      throw new ConfigError(`No "mcpServers" or "servers" in ${location.path}`, {
        path: location.path,
        hint: `expected {"mcpServers": {"NAME": {"command": …}}} (or VS Code's "servers")`,
      });
    }
    const here = { ...location, key };
    for (const [entryKey, entry] of Object.entries(serverEntries(config, here))) {
      const result = importEntry(entryKey, entry, {
        location: here,
        home: homeDir(ctx.io.env),
        cwd: ctx.io.cwd,
      });
      if ("skipped" in result) {
        await printErr(ctx.io, `jn: warning: skipped ${result.skipped} in ${location.path}`);
        continue;
      }
      const seen = found.get(result.name);
      if (seen !== undefined) {
        await printErr(
          ctx.io,
          `jn: warning: skipped "${entryKey}" of ${location.label}: @${result.name} comes from ${seen.location.label}`,
        );
        continue;
      }
      checkProfileFiles(
        { meta: result.meta, tools: new Map() },
        `${location.path} ("${entryKey}")`,
      );
      found.set(result.name, { server: result, location });
    }
  }
  return [...found.values()];
}

async function write(ctx: Ctx, found: Found[], flags: ImportFlags): Promise<void> {
  const layer = flags.project ? "project" : "user";
  const root = layerRoot(layer, { cwd: ctx.io.cwd, env: ctx.io.env });
  if (root === undefined) {
    throw new ConfigError("Cannot find your user profile directory: HOME is not set", {
      hint: "set HOME, or import into the project with --project",
    });
  }
  for (const { server, location } of found) {
    const dir = join(root, server.name);
    const exists = await Deno.stat(dir).then(() => true, () => false);
    if (exists && !flags.force) {
      await printErr(
        ctx.io,
        `jn: warning: kept the existing @${server.name} (${dir}); --force replaces it`,
      );
      continue;
    }
    await writeProfileDir(dir, { meta: server.meta, tools: new Map() }, {
      force: flags.force,
      label: `@${server.name}`,
    });
    await writeText(
      ctx,
      `Imported @${server.name} from ${location.label}: ${describeLaunch(server.meta)} → ${dir}\n`,
    );
    for (const note of server.notes) await printErr(ctx.io, `jn: @${server.name}: ${note}`);
    if (layer === "project") {
      await printErr(
        ctx.io,
        `jn: review it, then allow it to launch: jn profile trust @${server.name}`,
      );
    }
  }
}
