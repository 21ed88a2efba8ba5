/**
 * A prompt's arguments: MCP prompt arguments are strings, so every value
 * becomes text (a repeated key is joined with commas, a JSON value is
 * serialized), the arguments the prompt declares as required must be
 * given, and one it does not declare is an error naming the closest one
 * (unless `allowUnknown`, or the prompt lists no `arguments` at all). A
 * prompt that does not exist is an error naming the closest one. Pure, no I/O.
 *
 * @module
 */

import { UsageError } from "../errors.ts";
import { visibleLine, visibleNames } from "../output/visible.ts";
import { closest } from "../text/suggest.ts";
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
  options: { allowUnknown?: boolean } = {},
): Record<string, string> {
  const prompt = prompts.find((candidate) => candidate.name === name);
  if (!prompt) {
    const names = prompts.map((p) => p.name);
    const near = closest(name, names);
    throw new UsageError(`Prompt "${visibleLine(name)}" not found on server "${server}"`, {
      hint: near !== undefined
        ? `did you mean "${visibleLine(near)}"?`
        : `its prompts: ${visibleNames(names) || "none"}`,
    });
  }
  if (Array.isArray(prompt.arguments) && options.allowUnknown !== true) {
    const declared = prompt.arguments.map((a) => a.name);
    const unknown = [...pairs.keys()].find((key) => !declared.includes(key));
    if (unknown !== undefined) {
      const near = closest(unknown, declared);
      const what = near !== undefined
        ? `did you mean "${visibleLine(near)}"?`
        : declared.length > 0
        ? `its arguments are ${visibleNames(declared)}`
        : "the prompt takes no arguments";
      throw new UsageError(
        `Unknown argument "${visibleLine(unknown)}" for prompt "${visibleLine(name)}": ${what}`,
        { hint: "--allow-unknown sends arguments the prompt does not declare" },
      );
    }
  }
  const args: Record<string, string> = {};
  for (const [key, value] of pairs) {
    args[key] = value.kind === "raw" ? value.values.join(",") : stringArg(value.value);
  }
  const missing = (prompt.arguments ?? []).filter((a) => a.required && !(a.name in args));
  if (missing.length > 0) {
    throw new UsageError(
      `Prompt "${visibleLine(name)}" needs ${
        missing.map((a) => `"${visibleLine(a.name)}"`).join(", ")
      }`,
      { hint: `e.g. ?prompt=${visibleLine(name)}&${visibleLine(missing[0].name)}=…` },
    );
  }
  return args;
}

function stringArg(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}
