/**
 * The warnings jn's events stand for, as the CLI prints them, for a program
 * that wants to show its users the same text: the schema drift of a profile
 * (`events.onDrift`) and a result that differs from the profile's
 * `output_format` (`events.onOutputFormat`). The text is redacted already
 * (the events carry redacted data) and the server's text in it (tool and
 * parameter names, descriptions) is made visible, each on one line
 * (lib/output/visible.ts), so a name with a newline cannot start a line that
 * reads as jn's; make it visible before a terminal sees it only if you add
 * server text of your own.
 *
 * @module
 */

import type { DriftVerdict, OutputFormatDrift } from "../drift/check.ts";
import { driftWarningText, outputFormatText } from "../drift/text.ts";
import { style } from "../output/style.ts";
import { visibleDeep } from "../output/visible.ts";

/** Options of the message functions. */
export interface MessageOptions {
  /** ANSI colours (for a terminal that wants them). Default false. */
  color?: boolean;
}

/**
 * The drift warning of `schema_validation: warn` — the changes, the hashes
 * and what to do — or, when the drift stops the run, the changes and the
 * hashes printed before the DriftError.
 *
 * @example
 * ```ts
 * import { driftWarning, open } from "@jn/jn";
 * const conn = await open("@demo", {
 *   cwd: Deno.cwd(),
 *   env: Deno.env.toObject(),
 *   events: { onDrift: (drift) => console.error(driftWarning(drift)) },
 * });
 * await conn.close();
 * ```
 */
export function driftWarning(drift: DriftVerdict, options: MessageOptions = {}): string {
  const report = visibleDeep(drift.report);
  return driftWarningText(report, style(options.color === true), { stop: drift.stop });
}

/**
 * The warning of a tool result whose media type differs from the profile
 * tool's `output_format`, with the hint of what to change.
 *
 * @example
 * ```ts
 * import { open, outputFormatWarning } from "@jn/jn";
 * const conn = await open("@demo", {
 *   cwd: Deno.cwd(),
 *   env: Deno.env.toObject(),
 *   events: { onOutputFormat: (drift) => console.error(outputFormatWarning(drift)) },
 * });
 * await conn.close();
 * ```
 */
export function outputFormatWarning(
  drift: OutputFormatDrift,
  options: MessageOptions = {},
): string {
  // The media type is the server's: on one line, as the tool's name.
  return outputFormatText(
    { ...drift, change: visibleDeep(drift.change) },
    style(options.color === true),
  );
}
