/**
 * `jn put TARGET`: one tool call per NDJSON record on stdin (TARGET is an MCP
 * target: `mcp+…?tool=NAME` or `@server/tool`), the operation each record
 * names (an MCP target without a tool: `@server`), or stdin's records
 * written to a file (TARGET ends in `.json`, `.ndjson` or `.jsonl`). The rule that
 * tells them apart is lib/client/put_target.ts; the work is done by
 * lib/cli/put_tool.ts (through lib/client/put.ts) and lib/cli/put_file.ts,
 * loaded on demand.
 *
 * @module
 */

import { UsageError } from "../../errors.ts";
import { putTarget } from "../../client/put_target.ts";
import type { Cli, Outcome } from "../context.ts";
import type { Invocation } from "../table/command.ts";
import type { PUT } from "../table/commands.ts";
import { PUT_FLAGS } from "../table/command_flags.ts";
import { ARGUMENT_FLAGS } from "../table/flags.ts";

/** `jn put TARGET`. */
export async function run(cli: Cli, call: Invocation<typeof PUT>): Promise<Outcome> {
  const text = call.args.target;
  const target = putTarget(text);
  const { noteTerminalStdin } = await import("../stdin_hint.ts");
  await noteTerminalStdin(cli.io, "put", `jn cat SOURCE | jn put ${text}`);
  if (target.kind === "file") {
    refuseCallFlags(call.given, call.options.arg !== undefined || call.options.args !== undefined);
    const { runPutFile } = await import("../put_file.ts");
    return await runPutFile(cli, target.path, { format: target.format });
  }
  const { runPutTool } = await import("../put_tool.ts");
  return await runPutTool(cli, target.text, call.options, call.given);
}

/** Flags that only mean something for a tool are an error with a file target. */
function refuseCallFlags(given: ReadonlySet<string>, withArgs: boolean): void {
  const names = [...PUT_FLAGS, ...ARGUMENT_FLAGS].filter((flag) => given.has(flag.key))
    .map((flag) => `--${flag.long}`);
  if (names.length === 0) return;
  throw new UsageError(`${names.join(", ")} only apply when putting to a tool, not to a file`, {
    hint: withArgs ? "shape the records before, e.g. with jn filter" : undefined,
  });
}
