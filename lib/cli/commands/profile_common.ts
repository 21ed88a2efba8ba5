/**
 * What the `profile` subcommands share: reading a `@server` argument
 * (lib/client's `profileName`), reading stdin, asking a yes/no question on
 * a terminal.
 *
 * @module
 */

export { profileName } from "../../client/profile_name.ts";
import type { Cli } from "../context.ts";

/** Reads all of stdin as text. */
export async function readStdin(cli: Cli): Promise<string> {
  return await new Response(cli.io.stdin).text();
}

/**
 * Asks a yes/no question on stderr and reads one line of stdin: true for an
 * empty line, `y` or `yes`; false for anything else and for end of input.
 */
export async function confirm(cli: Cli, question: string): Promise<boolean> {
  try {
    await cli.io.stderr.write(new TextEncoder().encode(`${question} [Y/n] `));
  } catch { /* no stderr: the answer still counts */ }
  const reader = cli.io.stdin.pipeThrough(new TextDecoderStream()).getReader();
  let line = "";
  try {
    while (!line.includes("\n")) {
      const { value, done } = await reader.read();
      if (done) break;
      line += value;
    }
  } finally {
    reader.releaseLock();
  }
  if (line === "") return false;
  const answer = line.split("\n")[0].trim().toLowerCase();
  return answer === "" || answer === "y" || answer === "yes";
}
