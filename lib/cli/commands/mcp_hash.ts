/**
 * `jn mcp hash SOURCE [--format json]`: the seed-compatible schema hash of a
 * server's tools (SPEC §5). `--format json` adds each tool's hash and, for a
 * profile, the hash it recorded and whether they match.
 *
 * @module
 */

import type { Command } from "commander";
import { UsageError } from "../../errors.ts";
import { schemaHash, toolHashes } from "../../schema/hash.ts";
import { resolveTarget } from "../../client/resolve.ts";
import { parseSource } from "../../uri/parse.ts";
import { withSession } from "../connect.ts";
import type { Ctx } from "../main.ts";
import { addConnectionOptions, parseCallFlags, type RawCallFlags } from "../options.ts";
import { writeJson } from "../write.ts";
import { parseFormat, serverName } from "./inspect.ts";
import { writeText } from "./profile_common.ts";

/** Registers `mcp hash` on the `mcp` command. */
export function registerMcpHash(mcp: Command, ctx: Ctx): void {
  addConnectionOptions(
    mcp.command("hash")
      .description("the schema hash of a server's tools (seed-compatible MD5)")
      .argument("<source>", "mcp+LAUNCHER://… URI or @profile reference")
      .option("--format <format>", "text or json (adds per-tool hashes)", "text"),
  ).action(async (text: string, raw: RawCallFlags & { format: string }) => {
    const format = parseFormat(raw.format);
    const source = parseSource(text);
    if (source.operation.kind !== "none" || source.args.length > 0) {
      throw new UsageError(`mcp hash takes a server, not an operation: "${text}"`, {
        hint: "drop ?tool=, ?resource=, ?prompt=, ?list= and arguments from the source",
      });
    }
    const target = await resolveTarget(source, { cwd: ctx.io.cwd, env: ctx.io.env });
    const flags = { ...parseCallFlags(raw), ignoreSchema: true };
    const tools = await withSession(ctx, target, flags, (session) => session.listTools());
    const hash = schemaHash(tools);
    if (format === "text") {
      await writeText(ctx, `${hash}\n`);
      return;
    }
    const recorded = target.profile?.meta.schema_hash;
    await writeJson(ctx, {
      server: serverName(target),
      hash,
      tools: toolHashes(tools),
      ...(target.profile === undefined
        ? {}
        : { profile_hash: recorded ?? null, matches: recorded === hash }),
    });
  });
}
