/**
 * `jn profile create NAME [--from SOURCE] [--project] [--force]`: save a
 * profile from the seed's one-document JSON on stdin, or discovered from a
 * live server. Written to the user layer (`~/.local/jn/profiles/mcp/NAME/`)
 * or, with `--project`, to `.jn/profiles/mcp/NAME/` (and trusted, since the
 * user just wrote it).
 *
 * @module
 */

import type { Command } from "commander";
import { ConfigError, UsageError } from "../../errors.ts";
import { join } from "node:path";
import { launchFields, liveProfileFiles, rawLaunchFields } from "../../profile/edit/from_live.ts";
import { type LayerOptions, layerRoot } from "../../profile/layers.ts";
import { parseJsonc } from "../../profile/load.ts";
import { loadProfile } from "../../profile/resolve.ts";
import { splitSeedProfile } from "../../profile/edit/seed_format.ts";
import { recordTrust } from "../../profile/trust.ts";
import { type ProfileFiles, writeProfileDir } from "../../profile/edit/write.ts";
import { resolveTarget } from "../../client/resolve.ts";
import { parseSource } from "../../uri/parse.ts";
import { withSession } from "../connect.ts";
import { printErr } from "../io.ts";
import type { Ctx } from "../main.ts";
import { addConnectionOptions, parseCallFlags, type RawCallFlags } from "../options.ts";
import { profileName, readStdin, writeText } from "./profile_common.ts";

interface CreateFlags extends RawCallFlags {
  from?: string;
  project?: boolean;
  force?: boolean;
}

/** Registers `profile create`. */
export function registerProfileCreate(profile: Command, ctx: Ctx): void {
  const command = profile.command("create")
    .description("save a profile from stdin JSON (the seed's format) or --from a live server")
    .argument("<name>", "the profile's name (@name)")
    .option("--from <source>", "discover it from a server: mcp+…:// URI or @profile")
    .option(
      "--project",
      "write .jn/profiles/mcp/NAME in this directory (default: your user profiles)",
    )
    .option("--force", "replace an existing profile of that name in that layer");
  addConnectionOptions(command);
  command.action(async (nameText: string, raw: CreateFlags) => {
    const name = profileName(nameText);
    const options: LayerOptions = { cwd: ctx.io.cwd, env: ctx.io.env };
    const layer = raw.project ? "project" : "user";
    const root = layerRoot(layer, options);
    if (root === undefined) {
      throw new ConfigError("Cannot find your user profile directory: HOME is not set", {
        hint: "set HOME, or write a project profile with --project",
      });
    }
    const files = raw.from !== undefined
      ? await discover(ctx, raw.from, raw)
      : await fromStdin(ctx, name);
    const dir = join(root, name);
    const written = await writeProfileDir(dir, files, { force: raw.force, label: `@${name}` });
    await writeText(ctx, `Created @${name} in ${dir}: ${written.join(", ")}\n`);
    if (layer === "project") {
      await recordTrust(await loadProfile(name, options), ctx.io.env);
      await printErr(ctx.io, `jn: trusted the new project profile @${name} (you wrote it)`);
    }
  });
}

async function fromStdin(ctx: Ctx, name: string): Promise<ProfileFiles> {
  if (ctx.io.tty.stdin) {
    throw new UsageError("Expected the profile as JSON on stdin", {
      hint: `jn profile create ${name} < profile.json, or discover it: --from URI`,
    });
  }
  const text = await readStdin(ctx);
  const doc = parseJsonc(text, "<stdin>");
  return splitSeedProfile(doc.value, { source: "<stdin>" });
}

async function discover(ctx: Ctx, from: string, raw: CreateFlags): Promise<ProfileFiles> {
  const source = parseSource(from);
  if (source.operation.kind !== "none" || source.args.length > 0) {
    throw new UsageError(`--from takes a server, not an operation: "${from}"`, {
      hint: "drop ?tool=, ?resource=, ?prompt=, ?list= and arguments from the source",
    });
  }
  const target = await resolveTarget(source, { cwd: ctx.io.cwd, env: ctx.io.env });
  const flags = { ...parseCallFlags(raw), ignoreSchema: true };
  return await withSession(ctx, target, flags, async (session) =>
    liveProfileFiles({
      launch: target.profile
        ? rawLaunchFields(target.profile.rawMeta)
        : launchFields(target.launch),
      server: session.server,
      tools: await session.listTools(),
      source: from,
    }));
}
