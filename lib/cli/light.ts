/**
 * Commands answered without commander: `profile list` and `profile info
 * SERVER` read a few small files, and loading commander (which starts Deno's
 * Node compatibility layer) would cost more than their work. This module
 * parses their few flags itself — from the same declarations commander
 * gets (lib/cli/format.ts) — and runs the same functions as their commander
 * actions (lib/cli/commands/profile_list_text.ts and profile_info_text.ts).
 *
 * Only the plain, successful case is handled here: an argv it does not
 * fully recognise, a refused permission or any error hands the run back to
 * the CLI (nothing has been written yet), which then reports it exactly as
 * always. tests/cli/light_test.ts checks that both print the same, and
 * that this module's static imports reach no npm package.
 *
 * The parser also recognises the plainest calls, `inspect SOURCE [--format
 * F]` and `cat SOURCE` (with the global flags): main.ts runs those through
 * lib/cli/light_calls.ts, which runs the commands' own actions and reports
 * their errors itself (a server may have started: no second run).
 *
 * @module
 */

import { FORMAT_OPTION } from "./format.ts";
import { denoIo, type Io } from "./io.ts";
import { writeText } from "./write.ts";

/** Global flags (they take no value) accepted before or after the command words. */
const GLOBAL_FLAGS = new Set(["--debug", "-q", "--quiet"]);
/** `--format`'s long name, from its commander declaration. */
const FORMAT = /^--([a-z][a-z-]*) </.exec(FORMAT_OPTION.flags)![1];

/** A light command and what it was given. */
export interface LightRun {
  command: "profile list" | "profile info" | "inspect" | "cat";
  /** The server of `profile info`. */
  server?: string;
  /** The source of `inspect` and `cat`. */
  source?: string;
  format: "text" | "json";
  /** The global flags given. */
  debug: boolean;
  quiet: boolean;
}

/**
 * The light command `args` runs, or undefined when it runs anything else or
 * holds anything this parser does not know (help, `--`, an unknown or
 * misplaced flag, an invalid value): the CLI decides those.
 */
export function parseLight(args: readonly string[]): LightRun | undefined {
  const words: string[] = [];
  const flags = new Set<string>();
  let format: string = FORMAT_OPTION.default;
  let formatGiven = false;
  // `--format` belongs to the command: after `profile list|info`, or after `inspect`.
  const formatHere = () => words.length >= 2 || (words.length === 1 && words[0] === "inspect");
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (GLOBAL_FLAGS.has(arg)) {
      flags.add(arg);
      continue;
    }
    if (formatHere() && arg === `--${FORMAT}`) {
      const value = args[++i];
      if (value === undefined || value.startsWith("-")) return undefined;
      format = value;
      formatGiven = true;
    } else if (formatHere() && arg.startsWith(`--${FORMAT}=`)) {
      format = arg.slice(FORMAT.length + 3);
      formatGiven = true;
    } else if (arg.startsWith("-")) return undefined;
    else words.push(arg);
  }
  if (format !== "text" && format !== "json") return undefined;
  const globals = { debug: flags.has("--debug"), quiet: flags.has("-q") || flags.has("--quiet") };
  if (words.length === 2 && words[0] === "inspect") {
    return { command: "inspect", source: words[1], format, ...globals };
  }
  if (words.length === 2 && words[0] === "cat" && !formatGiven) {
    return { command: "cat", source: words[1], format, ...globals };
  }
  if (words.length === 2 && words[0] === "profile" && words[1] === "list") {
    return { command: "profile list", format, ...globals };
  }
  if (words.length === 3 && words[0] === "profile" && words[1] === "info") {
    return { command: "profile info", server: words[2], format, ...globals };
  }
  return undefined;
}

/**
 * Runs `profile list` or `profile info` if it succeeds: the exit code, or
 * undefined when the CLI must run it instead (nothing was written then).
 */
export async function runLight(run: LightRun): Promise<number | undefined> {
  if (run.command !== "profile list" && run.command !== "profile info") return undefined;
  let io: Io;
  let text: string;
  try {
    io = denoIo();
    // Each loads only what it uses (list: ~15 modules, info: ~30).
    text = run.command === "profile list"
      ? await (await import("./commands/profile_list_text.ts")).profileListText(io, run.format)
      : await (await import("./commands/profile_info_text.ts")).profileInfoText(
        io,
        run.server!,
        run.format,
      );
  } catch {
    return undefined;
  }
  try {
    await writeText(io, text);
    return 0;
  } catch (error) {
    // Some of it may be written: no second run, the CLI's report of the error.
    const { reportFailure } = await import("./report.ts");
    return await reportFailure(error, { io, debug: run.debug, quiet: run.quiet, outcome: "ok" });
  }
}
