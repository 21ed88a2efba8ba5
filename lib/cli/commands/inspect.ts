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

import type { Command } from "commander";
import { type InspectReport, inspectSections } from "../../client/inspect.ts";
import { resolveTarget } from "../../client/resolve.ts";
import type { InventorySection } from "../../output/inventory.ts";
import { formatInventory } from "../../output/human.ts";
import { style } from "../../output/style.ts";
import { withConnection } from "../connect.ts";
import { inspectHelp } from "../source_help.ts";
import { action, type Cli } from "../context.ts";
import { printErr, useColor } from "../io.ts";
import {
  addConnectionOptions,
  type CallFlags,
  parseCallFlags,
  type RawCallFlags,
} from "../options.ts";
import { writeJson, writeText } from "../write.ts";
import { parseFormat } from "../format.ts";

export { parseFormat };

/** Registers `inspect`. */
export function registerInspect(program: Command, cli: Cli): void {
  const command = program.command("inspect")
    .description("tools, resources, resource templates and prompts of a server")
    .argument("<source>", "mcp+LAUNCHER://… URI or @profile reference")
    .option("--format <format>", "text or json", "text");
  addConnectionOptions(command);
  command.addHelpText("after", inspectHelp());
  command.action(action(cli, (source: string, raw: InspectFlags) => runInspect(cli, source, raw)));
}

/** `inspect`'s flags, as commander gives them. */
export type InspectFlags = RawCallFlags & { format: string };

/**
 * `jn inspect SOURCE`: the action, also run without commander
 * (lib/cli/light_calls.ts).
 */
export async function runInspect(cli: Cli, source: string, raw: InspectFlags): Promise<void> {
  const format = parseFormat(raw.format);
  const report = await inspectSource(cli, source, parseCallFlags(raw));
  if (format === "json") await writeJson(cli.io, report.inventory);
  else {
    const s = style(useColor(cli.io) && cli.io.tty.stdout);
    await writeText(cli.io, formatInventory(report.inventory, s));
  }
  await reportFailures(cli, report);
}

/** Connects to a source and gathers its inventory (a failed list is in `failures`). */
export async function inspectSource(
  cli: Cli,
  sourceText: string,
  flags: CallFlags,
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
