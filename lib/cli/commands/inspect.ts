/**
 * `jn inspect SOURCE`: tools (with parameters), resources, resource templates
 * and prompts of a server (lib/client/inspect.ts, redacted) — text for
 * people, `--format json` for programs. Also the engine of
 * `jn mcp explore|tools|schema`. The text format shows server strings with
 * control characters made visible (lib/output/human.ts).
 *
 * @module
 */

import type { Command } from "commander";
import { inspect } from "../../client/inspect.ts";
import { resolveTarget } from "../../client/resolve.ts";
import { UsageError } from "../../errors.ts";
import type { Inventory } from "../../output/inventory.ts";
import { formatInventory } from "../../output/human.ts";
import { style } from "../../output/style.ts";
import { withConnection } from "../connect.ts";
import { INSPECT_HELP } from "../source_help.ts";
import { action, type Cli } from "../context.ts";
import { useColor } from "../io.ts";
import {
  addConnectionOptions,
  type CallFlags,
  parseCallFlags,
  type RawCallFlags,
} from "../options.ts";
import { writeJson, writeText } from "../write.ts";

/** Registers `inspect`. */
export function registerInspect(program: Command, cli: Cli): void {
  const command = program.command("inspect")
    .description("tools, resources, resource templates and prompts of a server")
    .argument("<source>", "mcp+LAUNCHER://… URI or @profile reference")
    .option("--format <format>", "text or json", "text");
  addConnectionOptions(command);
  command.addHelpText("after", INSPECT_HELP);
  command.action(action(cli, async (source: string, raw: RawCallFlags & { format: string }) => {
    const format = parseFormat(raw.format);
    const inventory = await inspectSource(cli, source, parseCallFlags(raw));
    if (format === "json") await writeJson(cli.io, inventory);
    else {
      const s = style(useColor(cli.io) && cli.io.tty.stdout);
      await writeText(cli.io, formatInventory(inventory, s));
    }
  }));
}

/** `text` or `json`, or a usage error. */
export function parseFormat(text: string): "text" | "json" {
  if (text === "text" || text === "json") return text;
  throw new UsageError(`Invalid --format "${text}"`, {
    hint: "use --format text or --format json",
  });
}

/** Connects to a source and gathers its inventory. */
export async function inspectSource(
  cli: Cli,
  sourceText: string,
  flags: CallFlags,
): Promise<Inventory> {
  const target = await resolveTarget(sourceText, { cwd: cli.io.cwd, env: cli.io.env });
  return await withConnection(cli, target, flags, (conn) => inspect(conn));
}
