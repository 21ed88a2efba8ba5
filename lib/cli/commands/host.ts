/**
 * `jn host add|remove HOST @server` and `jn host list`: MCP hosts' config
 * entries that run `jn serve` (lib/client/hosts.ts, host_list.ts hold the
 * policy and the edits). `add --dry-run` prints the entry as the file would
 * hold it (JSON on stdout) and writes nothing; what was written, the backup
 * and the notes go to stderr. `list` prints one record per entry — NDJSON
 * on a pipe, a line each on a terminal (`--format` chooses) — with the
 * strings of files jn did not write made visible.
 *
 * @module
 */

import { hostAdd, type HostChange } from "../../client/hosts.ts";
import { type HostEntryRecord, hostList, hostRemove } from "../../client/host_list.ts";
import { visibleDeep, visibleLine } from "../../output/visible.ts";
import type { Cli } from "../context.ts";
import { printErr } from "../io.ts";
import type { Invocation } from "../table/command.ts";
import type { HOST_ADD, HOST_LIST, HOST_REMOVE } from "../table/commands.ts";
import { writeJson, writeRecords, writeText } from "../write.ts";

type HostCall = Invocation<typeof HOST_ADD | typeof HOST_REMOVE | typeof HOST_LIST>;

/** `jn host add|remove|list`. */
export async function run(cli: Cli, call: HostCall): Promise<void> {
  const { io } = cli;
  const where = { cwd: io.cwd, env: io.env };
  switch (call.command.path[1]) {
    case "add": {
      const { args, options } = call as Invocation<typeof HOST_ADD>;
      const change = await hostAdd(args.host, args.server, { ...where, ...options });
      if (options.dryRun) await writeJson(io, change.snippet);
      await printErr(io, `jn: ${addLine(change, options.dryRun === true)}`);
      for (const note of change.notes) await printErr(io, `jn: ${visibleLine(note)}`);
      return;
    }
    case "remove": {
      const { args, options } = call as Invocation<typeof HOST_REMOVE>;
      const removal = await hostRemove(args.host, args.server, { ...where, ...options });
      if (options.dryRun) await writeJson(io, removal.removed);
      if (removal.removed.length === 0) {
        await printErr(
          io,
          `jn: no ${removal.scope} entry of ${removal.host} runs jn serve ${args.server}: nothing to remove`,
        );
      }
      for (const entry of removal.removed) {
        await printErr(
          io,
          `jn: ${options.dryRun ? "would remove" : "removed"} "${
            visibleLine(entry.name)
          }" from ${entry.label} (${visibleLine(entry.file)})`,
        );
      }
      for (const backup of removal.backups) {
        await printErr(io, `jn: the file before: ${visibleLine(backup)}`);
      }
      return;
    }
    case "list": {
      const { options } = call as Invocation<typeof HOST_LIST>;
      const listing = await hostList(where);
      for (const problem of listing.problems) {
        await printErr(io, `jn: warning: ${visibleLine(problem)}`);
      }
      const text = (options.format ?? (io.tty.stdout ? "text" : "ndjson")) === "text";
      const entries = visibleDeep(listing.entries);
      if (!text) return await writeRecords(io, entries);
      await writeText(
        io,
        entries.length === 0 ? "No host entry runs jn.\n" : entries.map(listLine).join(""),
      );
    }
  }
}

function addLine(change: HostChange, dryRun: boolean): string {
  const file = `${change.label} (${visibleLine(change.file)})`;
  const entry = `"${visibleLine(change.name)}"`;
  if (change.outcome === "unchanged") return `${file} already has ${entry}: nothing to change`;
  const verb = change.outcome === "added" ? "add" : "update";
  if (dryRun) return `would ${verb} ${entry} in ${file}; nothing written`;
  const backup = change.backup ? `; the file before: ${visibleLine(change.backup)}` : "";
  return `${verb === "add" ? "added" : "updated"} ${entry} in ${file}${backup}; ` +
    "restart the host to load it";
}

function listLine(entry: HostEntryRecord): string {
  const flags = [
    ...(entry.current ? [] : ["another jn"]),
    ...(entry.disabled ? ["switched off"] : []),
  ];
  return `${entry.host.padEnd(11)} ${entry.scope.padEnd(7)} ${entry.name}  serves ${
    entry.sources.join(" ") || "nothing"
  }${flags.length ? ` (${flags.join(", ")})` : ""}  ${entry.file}\n`;
}
