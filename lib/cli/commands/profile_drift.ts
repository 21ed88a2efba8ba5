/**
 * `jn profile validate|diff|update @server`: the live server compared with
 * the profile (SPEC §5). `validate` exits 3 on breaking changes; `diff` lists
 * the changes (text or json) and exits 0; `update` shows the diff, asks on a
 * terminal (`--yes` for scripts; without a terminal and without `--yes` it
 * refuses, so `update < /dev/null` is a dry run) and rewrites the profile,
 * keeping comments. A server that cannot be reached is exit 4, never
 * "changed".
 *
 * The report quotes the profile's values (expanded, so with its secrets) and
 * the server's (which may echo them): it is redacted in every format, and
 * its text shows server strings with control characters made visible.
 *
 * @module
 */

import type { Command } from "commander";
import { ConfigError, UsageError } from "../../errors.ts";
import { redact, redactDeep } from "../../output/redact.ts";
import { visible, visibleDeep } from "../../output/visible.ts";
import { type DriftReport, driftReport } from "../../drift/report.ts";
import { loadRawProfile } from "../../profile/resolve.ts";
import { applyUpdate, planUpdate } from "../../profile/edit/update.ts";
import type { ToolInfo } from "../../types.ts";
import { resolveTarget, type Target } from "../../client/resolve.ts";
import { parseSource } from "../../uri/parse.ts";
import { withSession } from "../connect.ts";
import { changeLines, hashLines, plural } from "../drift.ts";
import { type Style, style } from "../../output/style.ts";
import { useColor } from "../io.ts";
import { type Ctx, ExitCode } from "../main.ts";
import { addConnectionOptions, parseCallFlags, type RawCallFlags } from "../options.ts";
import { writeJson } from "../write.ts";
import { parseFormat } from "./inspect.ts";
import { confirm, profileName, writeText } from "./profile_common.ts";

type Flags = RawCallFlags & { format?: string; yes?: boolean };

/** Registers `profile validate`, `profile diff` and `profile update`. */
export function registerProfileDrift(profile: Command, ctx: Ctx): void {
  const validate = profile.command("validate")
    .description("compare the live server with the profile (exit 3 on breaking changes)")
    .argument("<server>", "@server")
    .option("--format <format>", "text or json", "text");
  addConnectionOptions(validate).action(async (server: string, raw: Flags) => {
    const format = parseFormat(raw.format ?? "text");
    const { report } = await liveReport(ctx, server, raw);
    if (format === "json") await writeJson(ctx, report);
    else await writeText(ctx, reportText(report, colors(ctx), { verdict: true }));
    if (report.counts.breaking > 0 && report.status !== "valid") ctx.exitCode = ExitCode.config;
  });

  const diff = profile.command("diff")
    .description("the changes between the profile and the live server, classified")
    .argument("<server>", "@server")
    .option("--format <format>", "text or json", "text");
  addConnectionOptions(diff).action(async (server: string, raw: Flags) => {
    const format = parseFormat(raw.format ?? "text");
    const { report } = await liveReport(ctx, server, raw);
    if (format === "json") await writeJson(ctx, report);
    else await writeText(ctx, reportText(report, colors(ctx), { verdict: false }));
  });

  const update = profile.command("update")
    .description("rewrite the profile to the live schema (keeps comments); asks first")
    .argument("<server>", "@server")
    .option("-y, --yes", "do not ask (for scripts)");
  addConnectionOptions(update).action(async (server: string, raw: Flags) => {
    await runUpdate(ctx, server, raw);
  });
}

async function liveReport(
  ctx: Ctx,
  server: string,
  raw: Flags,
): Promise<{ report: DriftReport; exact: DriftReport; live: ToolInfo[]; target: Target }> {
  const name = profileName(server);
  const target = await resolveTarget(parseSource(`@${name}`), { cwd: ctx.io.cwd, env: ctx.io.env });
  const flags = { ...parseCallFlags(raw), ignoreSchema: true };
  const live = await withSession(ctx, target, flags, (session) => session.listTools());
  // `exact` plans an update; `report` (redacted) is what gets printed.
  const exact = driftReport(target.profile!, live);
  return { report: redactDeep(exact, target.secrets), exact, live, target };
}

function colors(ctx: Ctx): Style {
  return style(useColor(ctx.io) && ctx.io.tty.stdout);
}

function reportText(raw: DriftReport, s: Style, options: { verdict: boolean }): string {
  const report = visibleDeep(raw);
  const { counts } = report;
  const summary = [
    counts.breaking > 0 ? plural(counts.breaking, "breaking change") : "",
    counts.nonBreaking > 0 ? plural(counts.nonBreaking, "non-breaking change") : "",
    counts.behavioural > 0 ? plural(counts.behavioural, "behavioural change") : "",
  ].filter(Boolean).join(", ");
  const lines: string[] = [];
  if (report.status === "unknown") {
    lines.push(`${report.server}: unknown — the profile has no schema_hash`);
  } else if (report.status === "valid") {
    lines.push(
      `${report.server}: valid (schema hash ${report.current_hash})${
        summary ? `; ${summary}` : ""
      }`,
    );
  } else {
    lines.push(`${report.server}: changed — ${summary || "the schema hash differs"}`);
  }
  if (report.changes.length > 0 || report.status === "changed") {
    lines.push("", ...changeLines(report, s), "", ...hashLines(report));
  }
  if (report.status === "unknown") {
    lines.push("", `hint: record the current schema: jn profile update ${report.server}`);
  } else if (report.status === "changed" || (!options.verdict && report.changes.length > 0)) {
    lines.push("", `Fix: jn profile update ${report.server}`);
  }
  return lines.join("\n") + "\n";
}

async function runUpdate(ctx: Ctx, server: string, raw: Flags): Promise<void> {
  const { report, exact, live, target } = await liveReport(ctx, server, raw);
  const profile = target.profile!;
  const s = colors(ctx);
  if (report.status === "valid" && report.changes.length === 0) {
    await writeText(ctx, `${report.server} is up to date (schema hash ${report.current_hash})\n`);
    return;
  }
  if (!profile.writable) {
    throw new ConfigError(`Profile ${report.server} is bundled with jn and cannot be changed`, {
      hint: `make your own copy first: jn profile create ${profile.name} --from ${report.server}`,
    });
  }
  const rawProfile = await loadRawProfile(profile.name, { cwd: ctx.io.cwd, env: ctx.io.env });
  const plan = planUpdate(rawProfile, live, exact);
  const lines = [reportText(report, s, { verdict: false }).replace(/\n\nFix: .*\n$/, "\n")];
  lines.push(
    `Update ${report.server} (${profile.dir}):`,
    ...plan.actions.map((a) => `  - ${visible(redact(a, target.secrets), { oneLine: true })}`),
    "",
  );
  await writeText(ctx, lines.join("\n"));
  if (!raw.yes) {
    if (!ctx.io.tty.stdin) {
      throw new UsageError(
        `Not updating ${report.server}: confirmation needed and stdin is not a terminal`,
        {
          hint: `rerun with --yes: jn profile update ${report.server} --yes`,
        },
      );
    }
    if (!(await confirm(ctx, `Rewrite ${report.server}?`))) {
      await writeText(ctx, "Nothing changed.\n");
      return;
    }
  }
  await applyUpdate(plan);
  await writeText(ctx, `Updated ${report.server}: new schema hash ${plan.newHash}\n`);
}
