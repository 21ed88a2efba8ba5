/**
 * A plain `jn put TARGET` without commander: the form a pipeline runs
 * thousands of records through (`jn put -c 16 "mcp+uvx://…?tool=NAME" <
 * records`), where commander and the Node-compatibility modules it imports
 * (node:fs, node:util, node:child_process …) are start-up cost the run does
 * not need. This module parses put's own few flags itself into the flags
 * commander would give put's action (lib/cli/commands/put.ts) — commander's
 * defaults for everything not given; lib/cli/light_calls.ts runs it.
 *
 * Only the argv it fully knows is taken: the global flags, `put`, one
 * MCP target (a file target goes to the CLI, which refuses
 * call flags there), `-c`/`--concurrency`, `--max-timeouts`, `--fail-fast`
 * and `--json`. Anything else (help, `--`, another flag, a value that looks
 * like a flag) is left to the CLI, before anything has run.
 * tests/cli/put_light_test.ts checks the parser against commander's and
 * that both paths print the same.
 *
 * @module
 */

import { putTarget } from "../put/target_kind.ts";
import type { CatCommandFlags } from "./commands/cat.ts";
import type { RawPutFlags } from "./commands/put.ts";

/** A plain `put` and what it was given. */
export interface PutLightRun {
  target: string;
  /** The flags as commander would hand them to put's action. */
  raw: RawPutFlags;
  debug: boolean;
  quiet: boolean;
}

const GLOBAL_FLAGS = new Set(["--debug", "-q", "--quiet"]);
/** Put's flags that take a value, by every name they may be given as. */
const VALUE_FLAGS: Record<string, "concurrency" | "maxTimeouts"> = {
  "-c": "concurrency",
  "--concurrency": "concurrency",
  "--max-timeouts": "maxTimeouts",
};
const SWITCHES: Record<string, "failFast" | "json"> = {
  "--fail-fast": "failFast",
  "--json": "json",
};

/**
 * The plain `put` that `args` runs, or undefined when it runs anything else
 * or holds anything this parser does not know. `defaults` are the flags
 * commander gives when none is given (lib/cli/light_calls.ts has them).
 */
export function parsePutLight(
  args: readonly string[],
  defaults: CatCommandFlags,
): PutLightRun | undefined {
  const words: string[] = [];
  const raw: RawPutFlags = { ...defaults };
  let debug = false;
  let quiet = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (GLOBAL_FLAGS.has(arg)) {
      if (arg === "--debug") debug = true;
      else quiet = true;
      continue;
    }
    if (!arg.startsWith("-")) {
      words.push(arg);
      continue;
    }
    // put's own flags come after `put`.
    if (words.length === 0) return undefined;
    const eq = arg.startsWith("--") ? arg.indexOf("=") : -1;
    const name = eq === -1 ? arg : arg.slice(0, eq);
    if (Object.hasOwn(SWITCHES, name) && eq === -1) {
      raw[SWITCHES[name]] = true;
    } else if (Object.hasOwn(VALUE_FLAGS, name)) {
      const value = eq === -1 ? args[++i] : arg.slice(eq + 1);
      if (value === undefined || value === "" || value.startsWith("-")) return undefined;
      raw[VALUE_FLAGS[name]] = value;
    } else return undefined;
  }
  if (words.length !== 2 || words[0] !== "put") return undefined;
  try {
    if (putTarget(words[1]).kind !== "mcp") return undefined;
  } catch {
    return undefined;
  }
  return { target: words[1], raw, debug, quiet };
}
