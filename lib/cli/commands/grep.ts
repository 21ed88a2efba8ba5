/**
 * `jn grep PATTERN [SOURCE…]`: tool, prompt and resource names and
 * descriptions that match (lib/client/grep.ts) — over every profile's saved
 * snapshot by default (offline, no server starts), or asking servers
 * (`SOURCE…`, `--live`). NDJSON records on a pipe, one line each on a
 * terminal (server text made visible). Exit 0 when something matched, 1
 * when nothing did, 2 for a bad pattern; a source that cannot be read or
 * reached is an `error` record and the search goes on.
 *
 * @module
 */

import { grep } from "../../client/grep.ts";
import { grepLine } from "../../output/agent_lines.ts";
import { style } from "../../output/style.ts";
import { openOptions } from "../connect.ts";
import type { Cli, Outcome } from "../context.ts";
import { useColor } from "../io.ts";
import { RecordSink } from "../record_sink.ts";
import type { Invocation } from "../table/command.ts";
import type { GREP } from "../table/commands.ts";
import { writeText } from "../write.ts";

/** `jn grep PATTERN [SOURCE…]`. */
export async function run(cli: Cli, call: Invocation<typeof GREP>): Promise<Outcome> {
  const { io } = cli;
  const { options } = call;
  const sources = call.args.source;
  const records = grep(call.args.pattern, {
    ...openOptions(cli, sources.join(" ") || "grep", options),
    sources,
    live: options.live === true,
    regex: options.regex === true,
    caseSensitive: options.caseSensitive === true,
  });
  const text = io.tty.stdout;
  const s = style(useColor(io) && text);
  const sink = new RecordSink(io.stdout, { kind: "all" });
  let matched = false;
  for await (const record of records) {
    if (record.type === "match") matched = true;
    if (text) await writeText(io, `${grepLine(record, s)}\n`);
    else {
      await sink.write(record);
      if (sink.done) return "ok";
    }
  }
  await sink.end();
  return matched ? "ok" : "no_match";
}
