/**
 * `jn mcp explore|tools|schema`: the seed's discovery commands. `explore` is
 * `inspect --format json`, `tools` the tool list as NDJSON, `schema` one
 * tool's schemas (`mcp hash` is mcp_hash.ts, `mcp demo-server`
 * mcp_demo.ts).
 *
 * @module
 */

import { connectionTool } from "../../client/call.ts";
import { resolveTarget, serverToolName } from "../../client/resolve.ts";
import { toolRecords } from "../../output/records.ts";
import { withConnection } from "../connect.ts";
import type { Cli } from "../context.ts";
import type { Invocation } from "../table/command.ts";
import type { MCP_EXPLORE, MCP_SCHEMA, MCP_TOOLS } from "../table/commands.ts";
import { writeJson, writeRecords } from "../write.ts";
import { inspectSource, reportFailures } from "./inspect.ts";

/** `jn mcp explore|tools|schema SOURCE`. */
export async function run(
  cli: Cli,
  call: Invocation<typeof MCP_EXPLORE | typeof MCP_TOOLS | typeof MCP_SCHEMA>,
): Promise<void> {
  const { options } = call;
  switch (call.command.path[1]) {
    case "explore": {
      const report = await inspectSource(cli, call.args.source, options);
      await writeJson(cli.io, report.inventory);
      await reportFailures(cli, report);
      return;
    }
    case "tools": {
      const { inventory, failures } = await inspectSource(cli, call.args.source, options);
      if (failures.tools) throw failures.tools;
      await writeRecords(cli.io, toolRecords(inventory.tools));
      return;
    }
    case "schema": {
      const { source, tool: toolName } = call.args as Invocation<typeof MCP_SCHEMA>["args"];
      const target = await resolveTarget(source, { cwd: cli.io.cwd, env: cli.io.env });
      // A profile's own tool name stands for the server's tool it calls.
      const name = serverToolName(target, toolName);
      const tool = await withConnection(
        cli,
        target,
        options,
        (conn) => connectionTool(conn, name, { asked: toolName }),
      );
      const schema: Record<string, unknown> = { name: tool.name, inputSchema: tool.inputSchema };
      if (tool.outputSchema) schema.outputSchema = tool.outputSchema;
      await writeJson(cli.io, schema);
    }
  }
}
