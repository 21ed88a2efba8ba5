/**
 * `jn completions bash|zsh|fish` prints a completion script generated from
 * the commander program (so it lists exactly the commands and flags jn
 * has); the hidden `jn __complete source WORD` is what the scripts call at
 * completion time for the words only a running jn knows: profile names
 * (`@server`), their tools (`@server/tool`) and the source schemes.
 *
 * @module
 */

import type { Command } from "commander";
import { UsageError } from "../../errors.ts";
import { completionScript, type Shell, SHELLS } from "../completion_scripts.ts";
import { completionSpec } from "../completion_spec.ts";
import { action, type Cli } from "../context.ts";
import { sourceCandidates } from "../source_candidates.ts";
import { writeText } from "../write.ts";

/** Registers `completions` and the hidden `__complete`. */
export function registerCompletions(program: Command, cli: Cli): void {
  program.command("completions")
    .description("print a shell completion script (bash, zsh or fish)")
    .argument("<shell>", SHELLS.join(" | "))
    .addHelpText(
      "after",
      "\nInstall:\n" +
        "  bash  echo 'source <(jn completions bash)' >> ~/.bashrc\n" +
        "  zsh   echo 'source <(jn completions zsh)' >> ~/.zshrc\n" +
        "  fish  jn completions fish > ~/.config/fish/completions/jn.fish",
    )
    .action(action(cli, async (shell: string) => {
      if (!(SHELLS as readonly string[]).includes(shell)) {
        throw new UsageError(`Unknown shell "${shell}"`, { hint: `use ${SHELLS.join(", ")}` });
      }
      await writeText(cli.io, completionScript(shell as Shell, completionSpec(program)));
    }));

  program.command("__complete", { hidden: true })
    .argument("<kind>", "what to complete: source")
    .argument("[word]", "the word typed so far", "")
    .action(action(cli, async (kind: string, word: string) => {
      if (kind !== "source") throw new UsageError(`Unknown completion kind "${kind}"`);
      const candidates = await sourceCandidates(word, { cwd: cli.io.cwd, env: cli.io.env });
      await writeText(cli.io, candidates.map((c) => `${c}\n`).join(""));
    }));
}
