/**
 * `jn mcp …`: the seed's discovery commands. `explore` is `inspect --format
 * json`, `tools` the tool list as NDJSON, `schema` one tool's schemas, and
 * `demo-server` runs jn's embedded demo MCP server over stdio.
 *
 * @module
 */

import type { Command } from "commander";
import { connectionTool } from "../../client/call.ts";
import { resolveTarget } from "../../client/resolve.ts";
import { profileTool } from "../../profile/resolve.ts";
import { toolRecords } from "../../output/records.ts";
import { withConnection } from "../connect.ts";
import { action, type Cli } from "../context.ts";
import { addConnectionOptions, parseCallFlags, type RawCallFlags } from "../options.ts";
import { writeJson, writeRecords } from "../write.ts";
import { inspectSource, reportFailures } from "./inspect.ts";
import { registerMcpHash } from "./mcp_hash.ts";

/** Registers `mcp` and its subcommands. */
export function registerMcp(program: Command, cli: Cli): void {
  const mcp = program.command("mcp").description(
    "discovery commands of the seed design, and the demo server",
  );

  addConnectionOptions(
    mcp.command("explore").description(
      "everything a server offers, as JSON (= inspect --format json)",
    )
      .argument("<source>", "mcp+LAUNCHER://… URI or @profile reference"),
  ).action(action(cli, async (source: string, raw: RawCallFlags) => {
    const report = await inspectSource(cli, source, parseCallFlags(raw));
    await writeJson(cli.io, report.inventory);
    await reportFailures(cli, report);
  }));

  addConnectionOptions(
    mcp.command("tools").description("the server's tools as NDJSON records")
      .argument("<source>", "mcp+LAUNCHER://… URI or @profile reference"),
  ).action(action(cli, async (source: string, raw: RawCallFlags) => {
    const { inventory, failures } = await inspectSource(cli, source, parseCallFlags(raw));
    if (failures.tools) throw failures.tools;
    await writeRecords(cli.io, toolRecords(inventory.tools));
  }));

  addConnectionOptions(
    mcp.command("schema").description("one tool's inputSchema (and outputSchema) as JSON")
      .argument("<source>", "mcp+LAUNCHER://… URI or @profile reference")
      .argument("<tool>", "the tool's name"),
  ).action(action(cli, async (source: string, toolName: string, raw: RawCallFlags) => {
    const target = await resolveTarget(source, { cwd: cli.io.cwd, env: cli.io.env });
    // A profile's own tool name stands for the server's tool it calls.
    const name = target.profile && profileTool(target.profile, toolName)?.serverTool || toolName;
    const tool = await withConnection(
      cli,
      target,
      parseCallFlags(raw),
      (conn) => connectionTool(conn, name, { asked: toolName }),
    );
    const schema: Record<string, unknown> = { name: tool.name, inputSchema: tool.inputSchema };
    if (tool.outputSchema) schema.outputSchema = tool.outputSchema;
    await writeJson(cli.io, schema);
  }));

  registerMcpHash(mcp, cli);

  mcp.command("demo-server")
    .description("run jn's demo MCP server on stdin/stdout (what @demo launches)")
    .action(action(cli, async () => {
      const { runDemoServer } = await import("../../demo/server.ts");
      await runDemoServer();
    }));
}
