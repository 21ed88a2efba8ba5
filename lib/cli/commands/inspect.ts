/**
 * `jn inspect SOURCE`: tools (with parameters), resources, resource templates
 * and prompts of a server — text for people, `--format json` for programs.
 * Also the engine of `jn mcp explore|tools|schema`.
 *
 * A server may echo a profile's substituted values (an API key) in its
 * descriptions: the inventory is redacted before it is printed, in either
 * format. The text format shows server strings with control characters made
 * visible (lib/output/human.ts).
 *
 * @module
 */

import type { Command } from "commander";
import { UsageError } from "../../errors.ts";
import { formatInventory } from "../../output/human.ts";
import { gatherInventory, type Inventory } from "../../output/inventory.ts";
import { redactDeep } from "../../output/redact.ts";
import { resolveTarget, type Target } from "../../client/resolve.ts";
import { parseSource } from "../../uri/parse.ts";
import { withSession } from "../connect.ts";
import { style } from "../../output/style.ts";
import { useColor } from "../io.ts";
import type { Ctx } from "../main.ts";
import {
  addConnectionOptions,
  type CallFlags,
  parseCallFlags,
  type RawCallFlags,
} from "../options.ts";
import { writeJson } from "../write.ts";

/** Registers `inspect`. */
export function registerInspect(program: Command, ctx: Ctx): void {
  const command = program.command("inspect")
    .description("tools, resources, resource templates and prompts of a server")
    .argument("<source>", "mcp+LAUNCHER://… URI or @profile reference")
    .option("--format <format>", "text or json", "text");
  addConnectionOptions(command);
  command.action(async (source: string, raw: RawCallFlags & { format: string }) => {
    const format = parseFormat(raw.format);
    const inventory = await inspectSource(ctx, source, parseCallFlags(raw));
    if (format === "json") await writeJson(ctx, inventory);
    else {
      await writeText(
        ctx,
        formatInventory(inventory, style(useColor(ctx.io) && ctx.io.tty.stdout)),
      );
    }
  });
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
  ctx: Ctx,
  sourceText: string,
  flags: CallFlags,
): Promise<Inventory> {
  const target = await resolveTarget(parseSource(sourceText), { cwd: ctx.io.cwd, env: ctx.io.env });
  const inventory = await withSession(
    ctx,
    target,
    flags,
    (session) =>
      gatherInventory(session, { server: serverName(target), transport: target.launch.transport }),
  );
  return redactDeep(inventory, target.secrets);
}

/** The seed's `server` field: a naked URI's location, or a profile's name. */
export function serverName(target: Target): string {
  return target.source.kind === "naked" ? target.source.location : target.source.server;
}

async function writeText(ctx: Ctx, text: string): Promise<void> {
  const { writeAll } = await import("../../ndjson/write.ts");
  await writeAll(ctx.io.stdout, new TextEncoder().encode(text), () => {});
}
