/**
 * `jn mcp hash SOURCE [--format json]`: the seed-compatible schema hash of a
 * server's tools (SPEC §5). `--format json` adds each tool's hash and, for a
 * profile, the hash it recorded and whether they match. It hashes every
 * tool the server lists, whatever `allow_tools`/`deny_tools` say: the hash
 * is the one `schema_hash` records.
 *
 * @module
 */

import type { Command } from "commander";
import { resolveTarget, serverName } from "../../client/resolve.ts";
import { liveTools } from "../../client/verbs.ts";
import { UsageError } from "../../errors.ts";
import { schemaHash, toolHashes } from "../../schema/hash.ts";
import { parseSource } from "../../uri/parse.ts";
import { withConnection } from "../connect.ts";
import { action, type Cli } from "../context.ts";
import { addConnectionOptions, parseCallFlags, type RawCallFlags } from "../options.ts";
import { writeJson, writeText } from "../write.ts";
import { parseFormat } from "./inspect.ts";

/** Registers `mcp hash` on the `mcp` command. */
export function registerMcpHash(mcp: Command, cli: Cli): void {
  addConnectionOptions(
    mcp.command("hash")
      .description("the schema hash of a server's tools (seed-compatible MD5)")
      .argument("<source>", "mcp+LAUNCHER://… URI or @profile reference")
      .option("--format <format>", "text or json (adds per-tool hashes)", "text"),
  ).action(action(cli, async (text: string, raw: RawCallFlags & { format: string }) => {
    const format = parseFormat(raw.format);
    const source = parseSource(text);
    if (source.operation.kind !== "none" || source.args.length > 0) {
      throw new UsageError(`mcp hash takes a server, not an operation: "${text}"`, {
        hint: "drop ?tool=, ?resource=, ?prompt=, ?list= and arguments from the source",
      });
    }
    const target = await resolveTarget(source, { cwd: cli.io.cwd, env: cli.io.env });
    const flags = { ...parseCallFlags(raw), ignoreSchema: true };
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
  }));
}
