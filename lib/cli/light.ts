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
 * @module
 */

import { FORMAT_OPTION } from "./format.ts";
import { denoIo, type Io } from "./io.ts";
import { writeText } from "./write.ts";
import type * as Cli from "./main.ts";

/** Global flags (they take no value) accepted before or after the command words. */
const GLOBAL_FLAGS = new Set(["--debug", "-q", "--quiet"]);
/** `--format`'s long name, from its commander declaration. */
const FORMAT = /^--([a-z][a-z-]*) </.exec(FORMAT_OPTION.flags)![1];

/** A light command and what it was given. */
export interface LightRun {
  command: "profile list" | "profile info";
  server?: string;
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
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (GLOBAL_FLAGS.has(arg)) {
      flags.add(arg);
      continue;
    }
    if (words.length >= 2 && arg === `--${FORMAT}`) {
      const value = args[++i];
      if (value === undefined || value.startsWith("-")) return undefined;
      format = value;
    } else if (words.length >= 2 && arg.startsWith(`--${FORMAT}=`)) {
      format = arg.slice(FORMAT.length + 3);
    } else if (arg.startsWith("-")) return undefined;
    else words.push(arg);
  }
  if (format !== "text" && format !== "json") return undefined;
  const globals = { debug: flags.has("--debug"), quiet: flags.has("-q") || flags.has("--quiet") };
  if (words.length === 2 && words[0] === "profile" && words[1] === "list") {
    return { command: "profile list", format, ...globals };
  }
  if (words.length === 3 && words[0] === "profile" && words[1] === "info") {
    return { command: "profile info", server: words[2], format, ...globals };
  }
  return undefined;
}

/**
 * Runs `args` if it is a light command and it succeeds: the exit code, or
 * undefined when the CLI must run it instead (nothing was written then).
 * `loadCli` loads the CLI to report a failure; the default imports it by a
 * computed URL, not a literal path: Deno would analyse the CLI's graph when
 * this module loads (main.ts).
 */
export async function runLight(
  args: readonly string[],
  loadCli: () => Promise<typeof Cli> = () => import(new URL("./main.ts", import.meta.url).href),
): Promise<number | undefined> {
  const run = parseLight(args);
  if (run === undefined) return undefined;
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
    const { reportFailure } = await loadCli();
    return await reportFailure(error, { io, debug: run.debug, quiet: run.quiet, outcome: "ok" });
  }
}
