/**
 * The values of input flags given as `@FILE` or `-` (`--args @call.json`,
 * `--elicit-answers -`), read before the command runs: the parser left a
 * {@linkcode PendingInput} in their place, and here each becomes the flag's
 * value as if its text had been typed.
 *
 * Guarantees: a file is read the way jn reads every file it did not write
 * (a regular file only, at most {@linkcode MAX_INPUT_BYTES}); stdin is read
 * by one flag at most, and never by a command that reads stdin itself
 * (`put`'s records, `profile create`'s document); every failure is a usage
 * error naming the flag, before any server starts.
 *
 * @module
 */

import { resolve } from "node:path";
import { ConfigError, UsageError } from "../errors.ts";
import { readBoundedText } from "../profile/bounded_read.ts";
import type { Io } from "./io.ts";
import type { Invocation } from "./table/command.ts";
import { PendingInput } from "./table/flag.ts";
import { readStreamBounded } from "../text/bytes.ts";

/** The most bytes a flag's file or stdin may hold. */
export const MAX_INPUT_BYTES = 16 * 1024 * 1024;

/** Reads each pending input and applies its text to its flag's field. */
export async function readFlagInputs(call: Invocation, io: Io): Promise<void> {
  const options = call.options as Record<string, unknown>;
  let stdinBy: string | undefined;
  for (const [key, value] of Object.entries(options)) {
    if (!(value instanceof PendingInput)) continue;
    const { from, flag, spelled } = value;
    let text: string;
    if (from === "-") {
      const reader = call.command.stdin;
      if (reader !== undefined) {
        throw new UsageError(
          `${spelled} - cannot read stdin: jn ${call.command.path.join(" ")} reads ${reader} there`,
          { hint: `give ${spelled} @FILE, or the JSON itself` },
        );
      }
      if (stdinBy !== undefined) {
        throw new UsageError(`${stdinBy} - and ${spelled} - both read stdin`, {
          hint: `give one of them @FILE`,
        });
      }
      stdinBy = spelled;
      text = await readStdin(io, spelled);
    } else {
      text = await readFile(resolve(io.cwd, from.slice(1)), `${spelled} ${from}`);
    }
    options[key] = flag.apply(undefined, text, spelled);
  }
}

async function readFile(path: string, what: string): Promise<string> {
  try {
    return await readBoundedText(path, { maxBytes: MAX_INPUT_BYTES });
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      throw new UsageError(`Cannot read ${what}: no such file`, {
        hint: "give the path of a JSON file after @ (relative to this directory)",
      });
    }
    if (error instanceof ConfigError) {
      throw new UsageError(`Cannot read ${what}: ${error.message.replace(/^.*: /, "")}`, {
        hint: "give a regular file (a JSON document)",
      });
    }
    throw error;
  }
}

async function readStdin(io: Io, spelled: string): Promise<string> {
  const bytes = await readStreamBounded(io.stdin, MAX_INPUT_BYTES);
  if (bytes === undefined) {
    throw new UsageError(`${spelled} -: stdin holds more than ${MAX_INPUT_BYTES} bytes`, {
      hint: "give a smaller JSON document",
    });
  }
  return new TextDecoder().decode(bytes);
}
