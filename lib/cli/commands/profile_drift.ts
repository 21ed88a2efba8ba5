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

import { UsageError } from "../../errors.ts";
import { redact, redactDeep } from "../../output/redact.ts";
import { visible, visibleDeep } from "../../output/visible.ts";
import {
  applyProfileUpdate,
  compareWithLive,
  type DriftReport,
  driftReportText,
  type LiveComparison,
  planProfileUpdate,
} from "../../client/profile.ts";
import { resolveTarget, type Target } from "../../client/resolve.ts";
import { type ConnectionValues, withConnection } from "../connect.ts";
import { type Style, style } from "../../output/style.ts";
import { printErr, useColor } from "../io.ts";
import type { Cli, Outcome } from "../context.ts";
import type { Invocation } from "../table/command.ts";
import type { PROFILE_DIFF, PROFILE_UPDATE, PROFILE_VALIDATE } from "../table/commands.ts";
import { writeJson, writeText } from "../write.ts";
import { confirm, profileName } from "./profile_common.ts";

/** `jn profile validate|diff|update @server`. */
export async function run(
  cli: Cli,
  call: Invocation<typeof PROFILE_VALIDATE | typeof PROFILE_DIFF | typeof PROFILE_UPDATE>,
): Promise<Outcome | void> {
  const { server } = call.args;
  const { options } = call;
  if (!("format" in options)) return await runUpdate(cli, server, options);
  const { report } = await liveReport(cli, server, options);
  const validate = call.command.path[1] === "validate";
  if (options.format === "json") await writeJson(cli.io, report);
  else await writeText(cli.io, reportText(report, colors(cli), { verdict: validate }));
  if (validate && report.counts.breaking > 0 && report.status !== "valid") return "breaking_drift";
}

async function liveReport(
  cli: Cli,
  server: string,
  values: ConnectionValues,
): Promise<{ report: DriftReport; exact: LiveComparison; target: Target }> {
  const name = profileName(server);
  const target = await resolveTarget(`@${name}`, { cwd: cli.io.cwd, env: cli.io.env });
  const flags = { ...values, ignoreSchema: true };
  const exact = await withConnection(cli, target, flags, compareWithLive);
  // `exact` plans an update; `report` (redacted) is what gets printed.
  return { report: redactDeep(exact.report, target.secrets), exact, target };
}

function colors(cli: Cli): Style {
  return style(useColor(cli.io) && cli.io.tty.stdout);
}

function reportText(report: DriftReport, s: Style, options: { verdict: boolean }): string {
  return driftReportText(visibleDeep(report), s, options);
}

async function runUpdate(
  cli: Cli,
  server: string,
  raw: Invocation<typeof PROFILE_UPDATE>["options"],
): Promise<void> {
  const { report, exact, target } = await liveReport(cli, server, raw);
  const s = colors(cli);
  const update = await planProfileUpdate(target, exact, { cwd: cli.io.cwd, env: cli.io.env });
  if (update.plan === undefined) {
    await writeText(
      cli.io,
      `${report.server} is up to date (schema hash ${report.current_hash})\n`,
    );
    return;
  }
  const plan = update.plan;
  const lines = [reportText(report, s, { verdict: false }).replace(/\n\n(Fix|hint): .*\n$/, "\n")];
  lines.push(
    `Update ${report.server} (${update.dir}):`,
    ...plan.actions.map((a) => `  - ${visible(redact(a, target.secrets), { oneLine: true })}`),
    "",
  );
  await writeText(cli.io, lines.join("\n"));
  if (plan.notes.length > 0 && !cli.quiet) {
    const notes = plan.notes.map((n) =>
      `jn: ${visible(redact(n, target.secrets), { oneLine: true })}`
    );
    await printErr(cli.io, notes.join("\n"));
  }
  if (!raw.yes) {
    if (!cli.io.tty.stdin) {
      throw new UsageError(
        `Not updating ${report.server}: confirmation needed and stdin is not a terminal`,
        {
          hint: `rerun with --yes: jn profile update ${report.server} --yes`,
        },
      );
    }
    if (!(await confirm(cli, `Rewrite ${report.server}?`))) {
      await writeText(cli.io, "Nothing changed.\n");
      return;
    }
  }
  await applyProfileUpdate(update);
  await writeText(cli.io, `Updated ${report.server}: new schema hash ${plan.newHash}\n`);
}
