/**
 * `jn inspect SOURCE`: tools (with parameters), resources, resource templates
 * and prompts of a server (lib/client/inspect.ts, redacted) — text for
 * people, `--format json` for programs. Also the engine of
 * `jn mcp explore|tools|schema`. The text format shows server strings with
 * control characters made visible (lib/output/human.ts).
 *
 * A list the server fails to give does not cost the others: it is a one-line
 * warning on stderr and an entry of `errors` in the output. The exit status
 * says whether the tools could be listed: a tools/list failure is printed
 * (and exits with its code, 5 for a JSON-RPC error) after what was gathered.
 *
 * @module
 */

import { type InspectReport, inspectSections } from "../../client/inspect.ts";
import { savedToolHelp, toolHelp } from "../../client/tool_help.ts";
import { UsageError } from "../../errors.ts";
import { formatBrief } from "../../output/brief.ts";
import { formatToolHelp, type ToolHelp } from "../../output/tool_help.ts";
import { visible } from "../../output/visible.ts";
import { resolveTarget } from "../../client/resolve.ts";
import type { InventorySection } from "../../output/inventory.ts";
import { formatInventory } from "../../output/human.ts";
import { style } from "../../output/style.ts";
import { type ConnectionValues, withConnection } from "../connect.ts";
import type { Cli } from "../context.ts";
import { printErr, useColor } from "../io.ts";
import type { Invocation } from "../table/command.ts";
import type { INSPECT } from "../table/commands.ts";
import { writeJson, writeText } from "../write.ts";

/** `jn inspect SOURCE`. */
export async function run(cli: Cli, call: Invocation<typeof INSPECT>): Promise<void> {
  const { options } = call;
  const target = await resolveTarget(call.args.source, { cwd: cli.io.cwd, env: cli.io.env });
  if (target.operation.kind === "tool") {
    const help = await withConnection(cli, target, options, (conn) => toolHelp(conn));
    await writeHelp(cli, help, options.format);
    return;
  }
  const report = await withConnection(cli, target, options, (conn) => inspectSections(conn));
  const s = style(useColor(cli.io) && cli.io.tty.stdout);
  switch (options.format) {
    case "json":
      await writeJson(cli.io, report.inventory);
      break;
    case "brief":
      await writeText(cli.io, formatBrief(report.inventory));
      break;
    case "text":
      await writeText(cli.io, formatInventory(report.inventory, s));
  }
  await reportFailures(cli, report);
}

/**
 * One tool's help (`jn help @profile/tool`, `jn help SOURCE?tool=NAME`): the
 * profile's saved snapshot when it has one (no server starts), else the
 * live server's.
 */
export async function writeToolHelp(
  cli: Cli,
  ref: string,
  options: ConnectionValues & { format: "text" | "json" },
): Promise<void> {
  const where = { cwd: cli.io.cwd, env: cli.io.env };
  const target = await resolveTarget(ref, where);
  if (target.operation.kind !== "tool") {
    throw new UsageError(`No tool named in "${ref}"`, {
      hint: `name one: jn help ${target.name}/TOOL, or SOURCE?tool=NAME`,
    });
  }
  const saved = target.profile ? await savedToolHelp(ref, where) : undefined;
  const help = saved ?? await withConnection(cli, target, options, (conn) => toolHelp(conn));
  await writeHelp(cli, help, options.format);
}

async function writeHelp(cli: Cli, help: ToolHelp, format: "text" | "json" | "brief") {
  if (format === "json") await writeJson(cli.io, help);
  else if (format === "brief") {
    await writeText(cli.io, `${visible(help.signature, { oneLine: true })}\n`);
  } else {await writeText(
      cli.io,
      formatToolHelp(help, style(useColor(cli.io) && cli.io.tty.stdout)),
    );}
}

/** Connects to a source and gathers its inventory (a failed list is in `failures`). */
export async function inspectSource(
  cli: Cli,
  sourceText: string,
  flags: ConnectionValues,
): Promise<InspectReport> {
  const target = await resolveTarget(sourceText, { cwd: cli.io.cwd, env: cli.io.env });
  return await withConnection(cli, target, flags, (conn) => inspectSections(conn));
}

const SECTION_NAMES: Record<InventorySection, string> = {
  tools: "tools",
  resources: "resources",
  resource_templates: "resource templates",
  prompts: "prompts",
};

/**
 * After the output: a warning line for each list that failed but the tools,
 * then the tools' failure, thrown (its exit code is the run's).
 */
export async function reportFailures(cli: Cli, report: InspectReport): Promise<void> {
  const color = useColor(cli.io);
  const s = style(color);
  for (const [section, error] of Object.entries(report.failures)) {
    if (section === "tools" || cli.quiet) continue;
    await printErr(
      cli.io,
      `${s.yellow("jn: warning:")} no ${
        SECTION_NAMES[section as InventorySection]
      } listed: ${error.message}`,
    );
  }
  if (report.failures.tools) throw report.failures.tools;
}
