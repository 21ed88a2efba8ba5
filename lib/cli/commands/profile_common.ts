/**
 * What the `profile` subcommands share: reading a `@server` argument,
 * reading stdin, asking a yes/no question on a terminal.
 *
 * @module
 */

import { UsageError } from "../../errors.ts";
import { SERVER_NAME } from "../../profile/layers.ts";
import type { Cli } from "../context.ts";

/** The server name of a `@server` argument (the `@` may be left out, as in the seed). */
export function profileName(text: string): string {
  const name = text.startsWith("@") ? text.slice(1) : text;
  if (!SERVER_NAME.test(name)) {
    throw new UsageError(`Invalid profile name "${text}"`, {
      hint: name.includes("/") || name.includes("?")
        ? "name the server only, e.g. @biomcp (not a tool or a query)"
        : `profile names use letters, digits, "-", "_" and "." (not first)`,
    });
  }
  return name;
}

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
