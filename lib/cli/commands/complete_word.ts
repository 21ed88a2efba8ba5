/**
 * `jn __complete source WORD`, what the completion scripts ask at
 * completion time: profile names (`@server`), their tools
 * (`@server/tool`) and the source schemes, one a line
 * (lib/cli/source_candidates.ts reads directory names only).
 *
 * @module
 */

import { UsageError } from "../../errors.ts";
import type { Cli } from "../context.ts";
import { sourceCandidates } from "../source_candidates.ts";
import type { Invocation } from "../table/command.ts";
import type { COMPLETE_WORD } from "../table/commands.ts";
import { writeText } from "../write.ts";

/** `jn __complete KIND [WORD]`. */
export async function run(cli: Cli, call: Invocation<typeof COMPLETE_WORD>): Promise<void> {
  const { kind, word = "" } = call.args;
  if (kind !== "source") throw new UsageError(`Unknown completion kind "${kind}"`);
  const candidates = await sourceCandidates(word, { cwd: cli.io.cwd, env: cli.io.env });
  await writeText(cli.io, candidates.map((c) => `${c}\n`).join(""));
}
