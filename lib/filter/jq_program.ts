/**
 * The jq program jn really runs around a user's expression, and the decoding
 * of its output into per-record events. Pure: no wasm, no I/O.
 *
 * Calling jq once per record costs about a millisecond (jq compiles its
 * builtins on every run), so jn feeds a whole batch of lines to one run with
 * `-R` (one raw string per line) and wraps the expression so that, for each
 * line, jq emits: the expression's outputs; a tagged array instead of the
 * error a record raises; then an end marker. The tag is a random marker chosen
 * per compile, so no record's data can forge it. This keeps jq's semantics
 * per record (outputs in order, an error stops only its own record) while the
 * output of a batch still says which line produced what, and a missing end
 * marker means `halt`/`halt_error` stopped jq on that line.
 *
 * Inside the wrapper, `input`/`inputs` raise an error (each record is filtered
 * on its own), and `$ENV`/`env` read the environment jn passes in.
 *
 * @module
 */

import type { NdjsonLine } from "../ndjson/read.ts";

/** What running the expression on a batch produced, record by record. */
export type JqEvent =
  /** One output of the expression, compact JSON as `jq -c` prints it. */
  | { kind: "output"; line: number; json: string }
  /** The expression raised an error on this record; jq's message, the next record goes on. */
  | { kind: "error"; line: number; message: string; value: unknown }
  /** The line is not one JSON value; jq's parser message. */
  | { kind: "invalid"; line: number; message: string }
  /** What `debug`, `stderr` wrote while the batch ending at `line` ran. */
  | { kind: "stderr"; line: number; text: string }
  /** `halt`/`halt_error` stopped jq on this record: no further record is read. */
  | { kind: "halt"; line: number; exitCode: number; stderr: string };

/** The result of one jq run, as jq-wasm reports it (stdout/stderr trimmed). */
export interface JqRunResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** Name of the `--argjson` variable that carries the environment. */
export const ENV_ARG = "__jn_env";

const NO_INPUT = JSON.stringify(
  "input and inputs are not available in jn filter: each record is filtered on its own",
);

/** Wraps `expr` for a batch run with `-R`; `marker` must be unguessable. */
export function wrapExpression(expr: string, marker: string): string {
  const m = JSON.stringify(marker);
  // The expression starts on line 1 so `$__loc__` stays right; the blank line
  // after it ends a trailing comment even if it continues with a backslash.
  const head = `$${ENV_ARG} as $ENV | def env: $ENV; def input: error(${NO_INPUT}); ` +
    `def inputs: error(${NO_INPUT}); def __jn_expr: (`;
  const tail = [
    "",
    ");",
    `(try ((try fromjson catch error([${m}, .])) | __jn_expr)`,
    ` catch (if type == "array" and length == 2 and .[0] == ${m}` +
    ` then [${m}, "p", .[1]] else [${m}, "e", .] end)),`,
    m,
  ].join("\n");
  return `${head}${expr}\n${tail}`;
}

/** Turns the output of one run over `lines` into events, in order. */
export function decodeRun(
  result: JqRunResult,
  lines: readonly NdjsonLine[],
  marker: string,
): JqEvent[] {
  const end = JSON.stringify(marker);
  const tagged = `[${end},`;
  const events: JqEvent[] = [];
  let index = 0;
  const outputs = result.stdout === "" ? [] : result.stdout.split("\n");
  for (const json of outputs) {
    if (json === end) {
      index++;
      continue;
    }
    const line = lines[index]?.number ?? lines[lines.length - 1]?.number ?? 0;
    if (!json.startsWith(tagged)) {
      events.push({ kind: "output", line, json });
      continue;
    }
    const [, tag, value] = JSON.parse(json) as [string, "p" | "e", unknown];
    if (tag === "p") events.push({ kind: "invalid", line, message: parseMessage(value) });
    else events.push({ kind: "error", line, message: errorMessage(value), value });
  }
  if (index < lines.length) {
    const { exitCode, stderr } = result;
    events.push({ kind: "halt", line: lines[index].number, exitCode, stderr });
  } else if (result.stderr !== "") {
    events.push({ kind: "stderr", line: lines[lines.length - 1].number, text: result.stderr });
  }
  return events;
}

/** jq's wording for an error value: the string itself, else `VALUE (not a string)`. */
export function errorMessage(value: unknown): string {
  if (typeof value === "string") return value;
  return `${JSON.stringify(value)} (not a string)`;
}

/** `Cannot parse JSON: …` from fromjson's message, without the echoed line. */
function parseMessage(value: unknown): string {
  const text = errorMessage(value)
    .replace(/ \(while parsing '[\s\S]*'\)$/, "")
    .replace(/ at line 1, column (\d+)$/, " at column $1");
  return `Cannot parse JSON: ${text}`;
}

/** A random marker: 128 bits, hex. */
export function newMarker(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `__jn_${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}
