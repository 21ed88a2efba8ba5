/**
 * The `--format text|json` flag that several commands share: its commander
 * syntax (also parsed, without commander, by lib/cli/light.ts) and its check.
 *
 * @module
 */

import { UsageError } from "../errors.ts";

/** `--format` as commander declares it: flags, description, default. */
export const FORMAT_OPTION = {
  flags: "--format <format>",
  description: "text or json",
  default: "text",
} as const;

/** `text` or `json`, or a usage error. */
export function parseFormat(text: string): "text" | "json" {
  if (text === "text" || text === "json") return text;
  throw new UsageError(`Invalid --format "${text}"`, {
    hint: "use --format text or --format json",
  });
}
