/**
 * What `jn profile list` prints: every profile directory of every layer,
 * with what it is (active, shadowed, invalid, …).
 *
 * @module
 */

import { jsonSafe, visibleDeep } from "../../output/visible.ts";
import { type Style, style } from "../../output/style.ts";
import { listProfiles, type ProfileEntry } from "../../client/profile_list.ts";
import type { Cli } from "../context.ts";
import { type Io, useColor } from "../io.ts";
import type { Invocation } from "../table/command.ts";
import type { PROFILE_LIST } from "../table/commands.ts";
import { writeText } from "../write.ts";

/** `jn profile list`. */
export async function run(cli: Cli, call: Invocation<typeof PROFILE_LIST>): Promise<void> {
  await writeText(cli.io, await profileListText(cli.io, call.options.format));
}

/** What `profile list` prints. */
async function profileListText(io: Io, format: "text" | "json"): Promise<string> {
  const entries = await listProfiles({ cwd: io.cwd, env: io.env });
  if (format === "json") return jsonSafe(JSON.stringify(entries, null, 2)) + "\n";
  return formatList(visibleDeep(entries), style(useColor(io) && io.tty.stdout));
}

const STATUS_TEXT: Record<ProfileEntry["status"], (e: ProfileEntry) => string> = {
  active: () => "",
  extends: (e) => `extends the ${e.defined_in} profile with its tool files`,
  shadowed: (e) => `shadowed by the ${e.defined_in} profile`,
  ignored: (e) =>
    `ignored: no _meta.json here, and the ${e.defined_in} profile is not extended from above`,
  "no-meta": () => "ignored: no _meta.json in any layer",
  invalid: (e) => `invalid: ${e.error}`,
};

function formatList(entries: ProfileEntry[], s: Style): string {
  if (entries.length === 0) return "No profiles.\n";
  const width = Math.max(...entries.map((e) => e.name.length)) + 1;
  const lines: string[] = [];
  for (const entry of entries) {
    const name = `@${entry.name}`.padEnd(width + 1);
    const head = `${entry.status === "active" ? s.bold(name) : s.dim(name)}  ${
      entry.layer.padEnd(7)
    }  ${s.dim(entry.path)}`;
    lines.push(head);
    const status = STATUS_TEXT[entry.status](entry);
    const text = [status, entry.description].filter(Boolean).join(" — ");
    if (text) lines.push(`${" ".repeat(width + 3)}${status ? s.yellow(text) : text}`);
  }
  return lines.join("\n") + "\n";
}
