/**
 * `jn skills SOURCE [NAME] [--out DIR]`: a server's skills (SEP-2640, the
 * `skills` extension; lib/client/skills.ts). Without NAME, one `skill`
 * record per skill (nothing is read); with NAME, the skill's files, each
 * verified against the listing (size, digest, SKILL.md frontmatter) before
 * anything is written — `skill_file` records with the content, or with
 * `--out DIR` written under `DIR/NAME/` (never through a symlink, never
 * outside DIR). A mismatch is exit 5, one line naming the file. NDJSON on a
 * pipe, one line each on a terminal (server text made visible).
 *
 * @module
 */

import { fetchSkill, listSkills, offersSkills } from "../../client/skills.ts";
import { resolveTarget } from "../../client/resolve.ts";
import { skillFileLine, skillLine } from "../../output/agent_lines.ts";
import { style } from "../../output/style.ts";
import { withConnection } from "../connect.ts";
import type { Cli } from "../context.ts";
import { printErr, useColor } from "../io.ts";
import { RecordSink } from "../record_sink.ts";
import type { Invocation } from "../table/command.ts";
import type { SKILLS } from "../table/commands.ts";
import { writeText } from "../write.ts";

/** `jn skills SOURCE [NAME]`. */
export async function run(cli: Cli, call: Invocation<typeof SKILLS>): Promise<void> {
  const { io } = cli;
  const { source, name } = call.args;
  const { options } = call;
  const target = await resolveTarget(source, { cwd: io.cwd, env: io.env });
  const records = await withConnection(cli, target, options, async (conn) => {
    if (name !== undefined) {
      const skill = await fetchSkill(conn, name, {
        outDir: options.out === undefined ? undefined : options.out,
        replace: options.force === true,
      });
      return skill.files;
    }
    if (!offersSkills(conn) && !cli.quiet) {
      await printErr(io, `jn: ${target.name} offers no skills (it does not declare the extension)`);
    }
    return await listSkills(conn);
  });
  const s = style(useColor(io) && io.tty.stdout);
  if (io.tty.stdout) {
    const lines = records.map((record) =>
      record.type === "skill_file" ? skillFileLine(record, s) : skillLine(record, s)
    );
    await writeText(io, lines.map((line) => `${line}\n`).join(""));
    return;
  }
  const sink = new RecordSink(io.stdout, { kind: "all" });
  for (const record of records) {
    await sink.write(record);
    if (sink.done) break;
  }
  await sink.end();
}
