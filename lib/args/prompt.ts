/**
 * A prompt's arguments: MCP prompt arguments are strings, so every value
 * becomes text (a repeated key is joined with commas, a JSON value is
 * serialized), and the arguments the prompt declares as required must be
 * given. Pure, no I/O.
 *
 * @module
 */

import { UsageError } from "../errors.ts";
import type { PromptInfo } from "../types.ts";
import type { ArgPairs } from "./collect.ts";

/**
 * The arguments of a call to prompt `name`, found among `prompts` of `server`;
 * a UsageError when the prompt does not exist or a required argument is missing.
 *
 * @example
 * ```ts
 * promptArguments(prompts, "summarize", typedArgs({ topic: "MCP" }), "@demo"); // { topic: "MCP" }
 * ```
 */
export function promptArguments(
  prompts: readonly PromptInfo[],
  name: string,
  pairs: ArgPairs,
  server: string,
): Record<string, string> {
  const prompt = prompts.find((candidate) => candidate.name === name);
  if (!prompt) {
    const known = prompts.map((p) => p.name).join(", ") || "none";
    throw new UsageError(`Prompt "${name}" not found on server "${server}"`, {
      hint: `its prompts: ${known}`,
    });
  }
  const args: Record<string, string> = {};
  for (const [key, value] of pairs) {
    args[key] = value.kind === "raw" ? value.values.join(",") : stringArg(value.value);
  }
  const missing = (prompt.arguments ?? []).filter((a) => a.required && !(a.name in args));
  if (missing.length > 0) {
    throw new UsageError(
      `Prompt "${name}" needs ${missing.map((a) => `"${a.name}"`).join(", ")}`,
      { hint: `e.g. ?prompt=${name}&${missing[0].name}=…` },
    );
  }
  return args;
}

function stringArg(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}
