/**
 * `jn mcp hash SOURCE [--format json]`: the seed-compatible schema hash of a
 * server's tools (SPEC §5). `--format json` adds each tool's hash and, for a
 * profile, the hash it recorded and whether they match. It hashes every
 * tool the server lists, whatever `allow_tools`/`deny_tools` say: the hash
 * is the one `schema_hash` records.
 *
 * @module
 */

import { resolveTarget, serverName } from "../../client/resolve.ts";
import { liveTools } from "../../client/verbs.ts";
import { UsageError } from "../../errors.ts";
import { schemaHash, toolHashes } from "../../schema/hash.ts";
import { parseSource } from "../../uri/parse.ts";
import { withConnection } from "../connect.ts";
import type { Cli } from "../context.ts";
import type { Invocation } from "../table/command.ts";
import type { MCP_HASH } from "../table/commands.ts";
import { writeJson, writeText } from "../write.ts";

/** `jn mcp hash SOURCE`. */
export async function run(cli: Cli, call: Invocation<typeof MCP_HASH>): Promise<void> {
  const text = call.args.source;
  const { format } = call.options;
  const source = parseSource(text);
  if (source.operation.kind !== "none" || source.args.length > 0) {
    throw new UsageError(`mcp hash takes a server, not an operation: "${text}"`, {
      hint: "drop ?tool=, ?resource=, ?prompt=, ?list= and arguments from the source",
    });
  }
  const target = await resolveTarget(source, { cwd: cli.io.cwd, env: cli.io.env });
  const flags = { ...call.options, ignoreSchema: true };
  const tools = await withConnection(cli, target, flags, liveTools);
  const hash = schemaHash(tools);
  if (format === "text") {
    await writeText(cli.io, `${hash}\n`);
    return;
  }
  const recorded = target.profile?.meta.schema_hash;
  await writeJson(cli.io, {
    server: serverName(target),
    hash,
    tools: toolHashes(tools),
    ...(target.profile === undefined
      ? {}
      : { profile_hash: recorded ?? null, matches: recorded === hash }),
  });
}
