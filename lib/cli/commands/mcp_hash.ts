/**
 * `jn mcp hash SOURCE [--format json]`: the seed-compatible schema hash of a
 * server's tools (SPEC §5). `--format json` adds each tool's hash and, for a
 * profile, the hash it recorded and whether they match. It hashes every
 * tool the server lists, whatever `allow_tools`/`deny_tools` say: the hash
 * is the one `schema_hash` records.
 *
 * @module
 */

import { hashServer } from "../../client/profile.ts";
import { resolveTarget, serverSource } from "../../client/resolve.ts";
import { withConnection } from "../connect.ts";
import type { Cli } from "../context.ts";
import type { Invocation } from "../table/command.ts";
import type { MCP_HASH } from "../table/commands.ts";
import { writeJson, writeText } from "../write.ts";

/** `jn mcp hash SOURCE`. */
export async function run(cli: Cli, call: Invocation<typeof MCP_HASH>): Promise<void> {
  const source = serverSource(call.args.source, "mcp hash");
  const target = await resolveTarget(source, { cwd: cli.io.cwd, env: cli.io.env });
  const flags = { ...call.options, ignoreSchema: true };
  const hashes = await withConnection(cli, target, flags, hashServer);
  if (call.options.format === "text") await writeText(cli.io, `${hashes.hash}\n`);
  else await writeJson(cli.io, hashes);
}
