/**
 * `jn profile create NAME [--from SOURCE] [--project] [--force]`: save a
 * profile from the seed's one-document JSON on stdin, or discovered from a
 * live server (lib/client/profile_create.ts): every problem of a document
 * is reported at once, one line each with its JSON path. Written to the
 * user layer (`~/.local/jn/profiles/mcp/NAME/`) or, with `--project`, to
 * `.jn/profiles/mcp/NAME/` (and trusted, since the user just wrote it).
 *
 * @module
 */

import { UsageError } from "../../errors.ts";
import { discoverProfile } from "../../client/profile.ts";
import {
  createProfile,
  type ProfileFiles,
  profileFromDocument,
  profileName,
} from "../../client/profile_create.ts";
import { resolveTarget, serverSource } from "../../client/resolve.ts";
import { withConnection } from "../connect.ts";
import { printErr } from "../io.ts";
import type { Cli } from "../context.ts";
import type { Invocation } from "../table/command.ts";
import type { PROFILE_CREATE } from "../table/commands.ts";
import { CONNECTION_FLAGS } from "../table/flags.ts";
import { writeText } from "../write.ts";
import { readStdin } from "./profile_common.ts";

type CreateCall = Invocation<typeof PROFILE_CREATE>;

/** `jn profile create NAME`. */
export async function run(cli: Cli, call: CreateCall): Promise<void> {
  const name = profileName(call.args.name);
  const { options } = call;
  const files = options.from !== undefined
    ? await discover(cli, options.from, call)
    : await fromStdin(cli, name);
  const created = await createProfile(name, files, {
    cwd: cli.io.cwd,
    env: cli.io.env,
    project: options.project,
    force: options.force,
  });
  await writeText(cli.io, `Created @${name} in ${created.dir}: ${created.files.join(", ")}\n`);
  if (created.trusted) {
    await printErr(cli.io, `jn: trusted the new project profile @${name} (you wrote it)`);
  }
}

async function fromStdin(cli: Cli, name: string): Promise<ProfileFiles> {
  if (cli.io.tty.stdin) {
    throw new UsageError("Expected the profile as JSON on stdin", {
      hint: `jn profile create ${name} < profile.json, or discover it: --from URI`,
    });
  }
  return profileFromDocument(await readStdin(cli), "<stdin>");
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
  const source = serverSource(from, "--from");
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
