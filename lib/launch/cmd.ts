/**
 * The cmd launcher: any program as a server, no profile needed.
 * `mcp+cmd://PROGRAM?command=ARG…` → `PROGRAM ARG…`, and its argv form:
 * `jn inspect -- docker run -i --rm mcp/time`, where the words after `--`
 * are the argv (the parser writes the URI, so both are one launch). PROGRAM
 * is found on PATH like a shell would (no shell is involved), or is a path
 * when it holds a `/` (made absolute against the caller's cwd).
 *
 * Nothing sets it apart from a profile's `"command"`: the server gets the
 * minimal environment (`--env-passthrough` for more), the isolation of its
 * program (`npx`, `uvx` never read the working directory's configuration),
 * the sandbox under `--sandbox`, and its whole process tree ends with jn.
 * Trust does not apply: the user typed the command.
 *
 * @module
 */

import type { LauncherDescriptor, LocationContext } from "./descriptor.ts";
import { defaultShortName } from "./descriptor.ts";

/** How much of the argv a label shows. */
const LABEL_CHARS = 60;

/** `mcp+cmd://`: any program, with its arguments as `command=` (or after `--`). */
export const cmd: LauncherDescriptor = {
  schemes: ["cmd"],
  usage: "mcp+cmd://PROGRAM",
  help: "any program (command=ARG…), or -- PROGRAM ARGS…",
  location: checkProgram,
  argv: true,
  // The last word that is not an option: `docker run -i --rm mcp/time` → `time`.
  short: (target) =>
    defaultShortName(
      [target.location, ...target.command].findLast((word) => !word.startsWith("-")) ??
        target.location,
    ),
  build: (target, ctx) => {
    const words = [target.location, ...target.command].join(" ");
    return {
      transport: "stdio",
      command: target.location.includes("/") ? ctx.absolute(target.location) : target.location,
      args: [...target.command],
      env: {},
      label: words.length > LABEL_CHARS ? `${words.slice(0, LABEL_CHARS - 1)}…` : words,
    };
  },
  programs: [],
};

/** A program name or path: one argv word, never `~` (there is no shell to expand it). */
function checkProgram(raw: string, ctx: LocationContext): string {
  const program = ctx.word(raw, "program", {
    dashHint: (word) => `write ./${word} for a file of that name`,
  });
  if (program.startsWith("~")) {
    ctx.fail(
      ctx.start,
      `program "${program}" starts with "~", which is not expanded (there is no shell)`,
      "write an absolute path, or a name found on PATH",
    );
  }
  return program;
}
