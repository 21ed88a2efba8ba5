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
import { type LayerOptions, layerRoot } from "../../profile/layers.ts";
import { parseJsonc } from "../../profile/load.ts";
import { loadProfile } from "../../profile/resolve.ts";
import { splitSeedProfile } from "../../profile/edit/seed_format.ts";
import { recordTrust } from "../../profile/trust.ts";
import { type ProfileFiles, writeProfileDir } from "../../profile/edit/write.ts";
import { discoverProfile } from "../../client/profile.ts";
import { resolveTarget } from "../../client/resolve.ts";
import { parseSource } from "../../uri/parse.ts";
import { withConnection } from "../connect.ts";
import { printErr } from "../io.ts";
import { action, type Cli } from "../context.ts";
import { addConnectionOptions, parseCallFlags, type RawCallFlags } from "../options.ts";
import { writeText } from "../write.ts";
import { profileName, readStdin } from "./profile_common.ts";

interface CreateFlags extends RawCallFlags {
  from?: string;
  project?: boolean;
  force?: boolean;
}

/** Registers `profile create`. */
export function registerProfileCreate(profile: Command, cli: Cli): void {
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
  command.action(action(cli, async (nameText: string, raw: CreateFlags, self: Command) => {
    const name = profileName(nameText);
    const options: LayerOptions = { cwd: cli.io.cwd, env: cli.io.env };
    const layer = raw.project ? "project" : "user";
    const root = layerRoot(layer, options);
    if (root === undefined) {
      throw new ConfigError("Cannot find your user profile directory: HOME is not set", {
        hint: "set HOME, or write a project profile with --project",
      });
    }
    const files = raw.from !== undefined
      ? await discover(cli, raw.from, raw, self)
      : await fromStdin(cli, name);
    const dir = join(root, name);
    const written = await writeProfileDir(dir, files, {
      force: raw.force,
      label: `@${name}`,
      project: layer === "project" ? cli.io.cwd : undefined,
    });
    await writeText(cli.io, `Created @${name} in ${dir}: ${written.join(", ")}\n`);
    if (layer === "project") {
      await recordTrust(await loadProfile(name, options), cli.io.env);
      await printErr(cli.io, `jn: trusted the new project profile @${name} (you wrote it)`);
    }
  }));
}

async function fromStdin(cli: Cli, name: string): Promise<ProfileFiles> {
  if (cli.io.tty.stdin) {
    throw new UsageError("Expected the profile as JSON on stdin", {
      hint: `jn profile create ${name} < profile.json, or discover it: --from URI`,
    });
  }
  const text = await readStdin(cli);
  const doc = parseJsonc(text, "<stdin>");
  return splitSeedProfile(doc.value, { source: "<stdin>" });
}

/** Flags that change how a server is reached or answered but that no profile field holds. */
const UNRECORDED = [
  ["timeout", "--timeout"],
  ["connectTimeout", "--connect-timeout"],
  ["protocol", "--protocol"],
  ["allowHttp", "--allow-http"],
  ["elicit", "--elicit"],
  ["logLevel", "--log-level"],
] as const;

async function discover(
  cli: Cli,
  from: string,
  raw: CreateFlags,
  self: Command,
): Promise<ProfileFiles> {
  const source = parseSource(from);
  if (source.operation.kind !== "none" || source.args.length > 0) {
    throw new UsageError(`--from takes a server, not an operation: "${from}"`, {
      hint: "drop ?tool=, ?resource=, ?prompt=, ?list= and arguments from the source",
    });
  }
  const target = await resolveTarget(source, { cwd: cli.io.cwd, env: cli.io.env });
  const flags = { ...parseCallFlags(raw), ignoreSchema: true };
  const found = await withConnection(cli, target, flags, (conn) => discoverProfile(conn, from));
  // The launch flags are in the profile; say which given flags are not.
  const given = (key: string) => {
    const source = self.getOptionValueSource(key);
    return source !== undefined && source !== "default";
  };
  const notes = [
    ...found.skippedHeaders.map((name) =>
      `jn: not recorded: the value of --header "${name}" (a credential); ` +
      `write "${name}": "\${VAR}" in "headers" of _meta.json`
    ),
    ...UNRECORDED.filter(([key]) => given(key)).map(([, flag]) =>
      `jn: not recorded: ${flag} (a profile has no field for it): give it on each use`
    ),
  ];
  if (notes.length > 0 && !cli.quiet) await printErr(cli.io, notes.join("\n"));
  return { meta: found.meta, tools: found.tools };
}
