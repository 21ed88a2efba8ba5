/**
 * `jn profile create NAME [--from SOURCE] [--project] [--force]`: save a
 * profile from the seed's one-document JSON on stdin, or discovered from a
 * live server. Written to the user layer (`~/.local/jn/profiles/mcp/NAME/`)
 * or, with `--project`, to `.jn/profiles/mcp/NAME/` (and trusted, since the
 * user just wrote it).
 *
 * @module
 */

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
import type { Cli } from "../context.ts";
import type { Invocation } from "../table/command.ts";
import type { PROFILE_CREATE } from "../table/commands.ts";
import { CONNECTION_FLAGS } from "../table/flags.ts";
import { writeText } from "../write.ts";
import { profileName, readStdin } from "./profile_common.ts";

type CreateCall = Invocation<typeof PROFILE_CREATE>;

/** `jn profile create NAME`. */
export async function run(cli: Cli, call: CreateCall): Promise<void> {
  const name = profileName(call.args.name);
  const { options: raw } = call;
  const options: LayerOptions = { cwd: cli.io.cwd, env: cli.io.env };
  const layer = raw.project ? "project" : "user";
  const root = layerRoot(layer, options);
  if (root === undefined) {
    throw new ConfigError("Cannot find your user profile directory: HOME is not set", {
      hint: "set HOME, or write a project profile with --project",
    });
  }
  const files = raw.from !== undefined
    ? await discover(cli, raw.from, call)
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

/**
 * Fields of the connection flags that change how a server is reached or
 * answered but that no profile field holds.
 */
const UNRECORDED = new Set([
  "timeoutMs",
  "connectTimeoutMs",
  "protocol",
  "allowHttp",
  "elicit",
  "logLevel",
]);

async function discover(cli: Cli, from: string, call: CreateCall): Promise<ProfileFiles> {
  const source = parseSource(from);
  if (source.operation.kind !== "none" || source.args.length > 0) {
    throw new UsageError(`--from takes a server, not an operation: "${from}"`, {
      hint: "drop ?tool=, ?resource=, ?prompt=, ?list= and arguments from the source",
    });
  }
  const target = await resolveTarget(source, { cwd: cli.io.cwd, env: cli.io.env });
  const flags = { ...call.options, ignoreSchema: true };
  const found = await withConnection(cli, target, flags, (conn) => discoverProfile(conn, from));
  // The launch flags are in the profile; say which given flags are not.
  const unrecorded = CONNECTION_FLAGS.filter((f) => UNRECORDED.has(f.key) && call.given.has(f.key));
  const notes = [
    ...found.skippedHeaders.map((name) =>
      `jn: not recorded: the value of --header "${name}" (a credential); ` +
      `write "${name}": "\${VAR}" in "headers" of _meta.json`
    ),
    ...unrecorded.map((flag) =>
      `jn: not recorded: --${flag.long} (a profile has no field for it): give it on each use`
    ),
  ];
  if (notes.length > 0 && !cli.quiet) await printErr(cli.io, notes.join("\n"));
  return { meta: found.meta, tools: found.tools };
}
