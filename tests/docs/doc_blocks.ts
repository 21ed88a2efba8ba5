/**
 * The shell commands of README.md and docs/*.md, read from their fenced
 * `sh` and `console` blocks, for tests/docs/doc_commands_test.ts.
 *
 * - In a `sh` block every line is a command (`\` continues it), except `#`
 *   comment lines and the output that follows a `$ ` command up to the next
 *   blank line.
 * - In a `console` block only `$ ` lines are commands; the rest is output.
 * - A command expects exit 0, or the code of a trailing `# exit N` comment on
 *   its line, or of an output line `# exit N` / `[exit N]` after it, or the
 *   number a following `$ echo $?` prints (that echo is not run).
 *
 * HTML comments right above a block (blank lines between are fine) steer it:
 *
 *   <!-- no-run: REASON -->              the block is not run
 *   <!-- no-run "PREFIX": REASON -->     its commands starting with PREFIX are not run
 *   <!-- needs: PROGRAM -->              run only where PROGRAM is on PATH (bwrap:
 *                                        where bubblewrap can sandbox)
 *
 * @module
 */

/** One command of a block. */
export interface DocCommand {
  /** 1-based line of the command's first line in its file. */
  line: number;
  /** The command as pasted (continuation lines joined with their newlines). */
  text: string;
  /** The exit code the docs promise. */
  expect: number;
}

/** One fenced sh/console block. */
export interface DocBlock {
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  lang: "sh" | "console";
  commands: DocCommand[];
  /** Why the whole block is not run (`<!-- no-run: … -->`). */
  noRun?: string;
  /** Command prefixes not run, with why. */
  skip: { prefix: string; reason: string }[];
  /** What the block needs to run (`<!-- needs: bwrap -->`). */
  needs: string[];
}

const FENCE = /^```(\S*)\s*$/;
const EXIT_LINE = /^(?:#\s*exit\s+(\d+)\b|\[exit\s+(\d+)\])/;
const TRAILING_EXIT = /\s#\s*exit\s+(\d+)\b/;

/** Every sh/console block of a markdown text. */
export function docBlocks(file: string, markdown: string): DocBlock[] {
  const lines = markdown.split("\n");
  const blocks: DocBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]);
    if (!open) continue;
    let end = i + 1;
    while (end < lines.length && !lines[end].startsWith("```")) end++;
    const lang = open[1];
    if (lang === "sh" || lang === "console") {
      const body = lines.slice(i + 1, end);
      blocks.push({
        file,
        line: i + 1,
        lang,
        commands: commandsOf(lang, body, i + 2),
        ...directives(lines, i),
      });
    }
    i = end;
  }
  return blocks;
}

function commandsOf(lang: "sh" | "console", body: string[], firstLine: number): DocCommand[] {
  const commands: DocCommand[] = [];
  let inOutput = false;
  let echoing = false;
  for (let k = 0; k < body.length; k++) {
    const raw = body[k];
    const prompted = raw.startsWith("$ ");
    if (raw === "$ echo $?") {
      echoing = inOutput = true;
      continue;
    }
    if (!prompted) {
      if (raw.trim() === "") {
        inOutput = false;
        continue;
      }
      if (inOutput || lang === "console") {
        const last = commands.at(-1);
        const exit = EXIT_LINE.exec(raw.trim()) ?? (echoing ? /^(\d+)$/.exec(raw.trim()) : null);
        if (exit && last) last.expect = Number(exit[1] ?? exit[2]);
        echoing = false;
        continue;
      }
      if (raw.trimStart().startsWith("#")) continue;
    }
    const start = k;
    let text = prompted ? raw.slice(2) : raw;
    while (text.endsWith("\\") && k + 1 < body.length) text += `\n${body[++k]}`;
    const trailing = TRAILING_EXIT.exec(text);
    commands.push({ line: firstLine + start, text, expect: trailing ? Number(trailing[1]) : 0 });
    inOutput = prompted;
  }
  return commands;
}

function directives(
  lines: string[],
  fence: number,
): Pick<DocBlock, "noRun" | "skip" | "needs"> {
  const found: Pick<DocBlock, "noRun" | "skip" | "needs"> = { skip: [], needs: [] };
  for (let j = fence - 1; j >= 0; j--) {
    const line = lines[j].trim();
    if (line === "") continue;
    const comment = /^<!--\s*(.*?)\s*-->$/.exec(line);
    if (!comment) break;
    const text = comment[1];
    let match: RegExpExecArray | null;
    if ((match = /^no-run\s+"([^"]+)":\s*(.+)$/.exec(text))) {
      found.skip.push({ prefix: match[1], reason: match[2] });
    } else if ((match = /^no-run:\s*(.+)$/.exec(text))) {
      found.noRun = match[1];
    } else if ((match = /^needs:\s*(.+)$/.exec(text))) {
      found.needs.push(...match[1].split(/[\s,]+/).filter(Boolean));
    }
  }
  return found;
}

/** The commands of a block that run (none when the block is `no-run`). */
export function runnable(block: DocBlock): DocCommand[] {
  if (block.noRun !== undefined) return [];
  return block.commands.filter((command) =>
    !block.skip.some((skip) => command.text.startsWith(skip.prefix))
  );
}
