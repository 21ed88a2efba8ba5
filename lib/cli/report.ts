/**
 * How a CLI run reports an error on stderr, and the exit code it ends with
 * (lib/cli/main.ts calls it for every failure). No npm package, so that a
 * failure of a light command stays light.
 *
 * @module
 */

import {
  InterruptedError,
  isPermissionRefusal,
  JnError,
  refusalMessage,
  stateWriteError,
  UriSyntaxError,
} from "../errors.ts";
import { style } from "../output/style.ts";
import { visible } from "../output/visible.ts";
import type { Cli } from "./context.ts";
import { exitCodeFor } from "./exit_codes.ts";
import { printErr, useColor } from "./io.ts";

/**
 * Reports an error that happened in a command's run the CLI's way, and
 * returns its exit code.
 */
export async function reportFailure(error: unknown, cli: Cli): Promise<number> {
  const failure = stateWriteError(error) ?? error;
  await reportError(failure, cli);
  return exitCodeFor(failure);
}

/**
 * Prints an error the way SPEC and STYLE ask: one line of what, one of what
 * to do. Messages, hints and stderr tails can carry a server's text: their
 * control characters are made visible before jn colours them, and the lines
 * after the first of a message are indented, so a server's newline cannot
 * forge a `hint:` or `jn:` line.
 */
export async function reportError(error: unknown, ctx: Cli): Promise<void> {
  const s = style(useColor(ctx.io));
  const lines: string[] = [];
  const text = (value: string) => visible(value).replaceAll("\n", "\n  ");
  if (error instanceof InterruptedError) {
    if (!ctx.quiet) lines.push(`${s.dim("jn:")} interrupted`);
  } else if (error instanceof JnError) {
    lines.push(`${s.red("jn:")} ${text(error.message)}`);
    if (error instanceof UriSyntaxError) lines.push(caretLines(error));
    const tail = (error as { stderrTail?: string }).stderrTail;
    if (tail) {
      lines.push(s.dim("server stderr (last lines):"));
      for (const line of tail.split("\n").slice(-12)) {
        lines.push(s.dim(`  ${visible(line, { oneLine: true })}`));
      }
    }
    if (error.hint) lines.push(`${s.cyan("hint:")} ${text(error.hint)}`);
  } else if (isPermissionRefusal(error)) {
    // One line that names the exact flag (see docs/install.md, "Permissions").
    lines.push(`${s.red("jn:")} ${text(refusalMessage(error))}`);
  } else {
    const message = error instanceof Error ? error.message : String(error);
    lines.push(`${s.red("jn: internal error:")} ${text(message)}`);
    if (!ctx.debug) lines.push(`${s.cyan("hint:")} rerun with --debug for the stack trace`);
  }
  if (ctx.debug && error instanceof Error) lines.push(visible(debugTrace(error)));
  await printErr(ctx.io, lines.join("\n"));
}

/** The URI (the user's own text, still shown safely) with a caret under the bad spot. */
function caretLines(error: UriSyntaxError): string {
  const input = visible(error.input, { oneLine: true });
  const before = visible(error.input.slice(0, Math.max(0, error.index)), { oneLine: true });
  const index = Math.min(before.length, input.length);
  return `  ${input}\n  ${" ".repeat(index)}^`;
}

function debugTrace(error: Error): string {
  const parts: string[] = [];
  let current: unknown = error;
  let depth = 0;
  while (current instanceof Error && depth < 8) {
    parts.push(`${depth === 0 ? "" : "caused by: "}${current.stack ?? current.message}`);
    current = current.cause;
    depth++;
  }
  return parts.join("\n");
}
