/**
 * `jn put TARGET`: one tool call per NDJSON record on stdin (TARGET is an MCP
 * target: `mcp+…?tool=NAME` or `@server/tool`), or stdin's records written
 * to a file (TARGET ends in `.json`, `.ndjson` or `.jsonl`). The rule that
 * tells them apart is lib/put/target_kind.ts; the work is done by
 * lib/cli/put_tool.ts (through lib/client/put.ts) and lib/cli/put_file.ts,
 * loaded on demand.
 *
 * @module
 */

import type { Command } from "commander";
import { UsageError } from "../../errors.ts";
import { putTarget } from "../../put/target_kind.ts";
import { PUT_DEFAULTS } from "../../client/options.ts";
import { action, type Cli, type Outcome } from "../context.ts";
import {
  addArgumentOptions,
  addConnectionOptions,
  parseCallFlags,
  type RawCallFlags,
} from "../options.ts";

const DEFAULT_CONCURRENCY = PUT_DEFAULTS.concurrency;
const DEFAULT_MAX_TIMEOUTS = PUT_DEFAULTS.maxTimeouts;
const MAX_CONCURRENCY = 1024;

/** The raw flag values commander collects for `put`. */
export interface RawPutFlags extends RawCallFlags {
  concurrency?: string;
  failFast?: boolean;
  maxTimeouts?: string;
}

/** Registers `put`. */
export function registerPut(program: Command, cli: Cli): void {
  const command = program.command("put")
    .description(
      "one tool call per NDJSON record on stdin → NDJSON; or stdin's records → FILE.json|.ndjson",
    )
    .argument("<target>", "mcp+…?tool=NAME or @server/tool; or FILE.json, FILE.ndjson, FILE.jsonl")
    .option(
      "-c, --concurrency <K>",
      "calls in flight at once on the one session (output stays in input order)",
      String(DEFAULT_CONCURRENCY),
    )
    .option("--fail-fast", "stop reading at the first failed record (exit 1)")
    .option(
      "--max-timeouts <N>",
      "stop calling after N calls in a row timed out; the rest are not_attempted (0: never)",
      String(DEFAULT_MAX_TIMEOUTS),
    )
    .option(
      "--json",
      "emit the payload (structured content or parsed JSON text) instead of the envelope",
    );
  addArgumentOptions(command);
  addConnectionOptions(command);
  command.addHelpText("after", PUT_HELP);
  command.action(action(cli, (text: string, raw: RawPutFlags) => runPut(cli, text, raw, command)));
}

/**
 * `put`'s action: what commander runs, and what lib/cli/put_light.ts runs
 * for a plain `put TARGET` without commander (`command` is then absent: the
 * light path takes no flag that only a file target refuses).
 */
export async function runPut(
  cli: Cli,
  text: string,
  raw: RawPutFlags,
  command?: Command,
): Promise<Outcome> {
  const target = putTarget(text);
  const { noteTerminalStdin } = await import("../stdin_hint.ts");
  await noteTerminalStdin(cli.io, "put", `jn cat SOURCE | jn put ${text}`);
  if (target.kind === "file") {
    if (command !== undefined) refuseCallFlags(raw, command);
    const { runPutFile } = await import("../put_file.ts");
    return await runPutFile(cli, target.path, { format: target.format });
  }
  const flags = parseCallFlags(raw);
  const concurrency = parseConcurrency(raw.concurrency ?? String(DEFAULT_CONCURRENCY));
  const maxTimeouts = parseMaxTimeouts(raw.maxTimeouts ?? String(DEFAULT_MAX_TIMEOUTS));
  const { runPutTool } = await import("../put_tool.ts");
  return await runPutTool(cli, target.text, {
    flags,
    concurrency,
    failFast: raw.failFast === true,
    maxTimeouts,
  });
}

const PUT_HELP = `
Each record on stdin is one call; its fields override the URI's and --arg's
arguments; keys starting with _ are not sent. Output: the call's records with
"input": N (the line number), in input order; a bad line or a failed call is
{"type":"error","input":N,"kind":…,"error":…} and the run goes on. After
--max-timeouts calls in a row timed out, no further call is made and each
remaining line is {"kind":"not_attempted",…}.

Examples:
  jn put "mcp+uvx://biomcp-python/biomcp?command=run&tool=variant_search" < genes.ndjson
  jn cat --json "@demo/list_items?count=20" | jn filter 'select(.id % 2 == 0)' | jn put items.json

Exit: 0 all records succeeded, 1 some failed, 2 usage, 4 the server went away, 130 interrupted.`;

function parseConcurrency(text: string): number {
  const n = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!(n >= 1 && n <= MAX_CONCURRENCY)) {
    throw new UsageError(
      `Invalid --concurrency "${text}": expected a whole number from 1 to ${MAX_CONCURRENCY}`,
      {
        hint: `e.g. --concurrency 16 (default ${DEFAULT_CONCURRENCY})`,
      },
    );
  }
  return n;
}

function parseMaxTimeouts(text: string): number {
  if (!/^\d+$/.test(text) || Number(text) > 1_000_000) {
    throw new UsageError(
      `Invalid --max-timeouts "${text}": expected a whole number (0: never stop)`,
      {
        hint: `e.g. --max-timeouts 10 (default ${DEFAULT_MAX_TIMEOUTS})`,
      },
    );
  }
  return Number(text);
}

/** Flags that only mean something for a tool are an error with a file target. */
function refuseCallFlags(raw: RawPutFlags, command: Command): void {
  const given = ["concurrency", "failFast", "maxTimeouts", "json", "arg", "args", "allowUnknown"]
    .filter((name) => command.getOptionValueSource(name) === "cli");
  if (given.length === 0) return;
  const names = given.map((name) => `--${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`);
  throw new UsageError(`${names.join(", ")} only apply when putting to a tool, not to a file`, {
    hint: raw.arg || raw.args ? "shape the records before, e.g. with jn filter" : undefined,
  });
}
