/**
 * `jn profile import claude|claude-code|cursor|vscode|windsurf|zed|FILE [--project]
 * [--force] [--dry-run]`: turn the MCP server entries of editors' configs
 * into profiles (lib/client/profile_import.ts says where each goes). Where
 * each profile went, and every note, is said on stderr, with control
 * characters made visible (entry names come from files jn did not write).
 *
 * @module
 */

import {
  checkImportPlan,
  heldNames,
  type ImportPlan,
  planProfileImport,
  writeImport,
} from "../../client/profile_import.ts";
import { visibleLine } from "../../output/visible.ts";
import { printErr } from "../io.ts";
import type { Cli } from "../context.ts";
import type { Invocation } from "../table/command.ts";
import type { PROFILE_IMPORT } from "../table/commands.ts";
import { writeJson } from "../write.ts";

/** `jn profile import EDITOR|FILE`. */
export async function run(cli: Cli, call: Invocation<typeof PROFILE_IMPORT>): Promise<void> {
  const { source } = call.args;
  const flags = call.options;
  const place = { cwd: cli.io.cwd, env: cli.io.env };
  const plan = await planProfileImport(source, { ...place, project: flags.project === true });
  for (const notice of plan.notices) await printErr(cli.io, `jn: ${visibleLine(notice)}`);
  checkImportPlan(source, plan);
  if (flags.dryRun) {
    await writeJson(
      cli.io,
      plan.imports.map(({ server, location, layer }) => ({
        ...server,
        layer,
        from: location.path,
      })),
    );
  } else {
    for (const planned of plan.imports) {
      const { dir, written, launch } = await writeImport(planned, { ...place, force: flags.force });
      const name = planned.server.name;
      if (!written) {
        await printErr(
          cli.io,
          `jn: warning: kept the existing @${name} (${dir}); --force replaces it`,
        );
        continue;
      }
      await printErr(
        cli.io,
        `Imported @${name} from ${visibleLine(planned.location.label)}: ${launch} → ${dir}`,
      );
      for (const note of planned.server.notes) {
        await printErr(cli.io, `jn: @${name}: ${visibleLine(note)}`);
      }
      if (planned.layer === "project") {
        await printErr(
          cli.io,
          `jn: @${name} is a project profile: review ${dir}, then allow it to launch: jn profile trust @${name}`,
        );
      }
    }
  }
  await reportHeld(cli, plan);
}

/** Lists the project-scoped entries that were not imported. */
async function reportHeld(cli: Cli, plan: ImportPlan): Promise<void> {
  if (plan.held.length === 0) return;
  const one = plan.held.length === 1;
  await printErr(
    cli.io,
    `jn: not imported: ${heldNames(plan)} came with this directory, not from you; ` +
      `add --project to import ${one ? "it" : "them"} into .jn/profiles/mcp/, ` +
      `where ${one ? "it launches" : "they launch"} nothing until jn profile trust`,
  );
}
