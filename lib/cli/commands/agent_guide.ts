/**
 * `jn agent-guide [--out DIR]`: the skill that teaches an LLM agent to use
 * jn (lib/cli/agent_guide.ts, rendered from jn's own tables), as `SKILL.md`
 * on stdout, or written to `DIR/jn/SKILL.md` (an agent's skills folder,
 * e.g. `~/.claude/skills`) the way `jn skills … --out DIR` writes a skill:
 * never through a symlink, an existing `DIR/jn` replaced only with
 * `--force`. Where it went is said on stderr.
 *
 * @module
 */

import { writeSkill } from "../../client/skill_files.ts";
import { agentGuide, GUIDE_NAME } from "../agent_guide.ts";
import type { Cli } from "../context.ts";
import { printErr } from "../io.ts";
import type { Invocation } from "../table/command.ts";
import type { AGENT_GUIDE } from "../table/commands.ts";
import { writeText } from "../write.ts";

/** `jn agent-guide`. */
export async function run(cli: Cli, call: Invocation<typeof AGENT_GUIDE>): Promise<void> {
  const text = agentGuide();
  const out = call.options.out;
  if (out === undefined) return await writeText(cli.io, text);
  const dir = out.startsWith("/") ? out : `${cli.io.cwd}/${out}`;
  const written = await writeSkill(dir, GUIDE_NAME, [{
    path: ["SKILL.md"],
    bytes: new TextEncoder().encode(text),
  }], { replace: call.options.force === true });
  if (!cli.quiet) await printErr(cli.io, `Wrote ${written.paths[0]}`);
}
