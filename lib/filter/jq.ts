/**
 * lib/filter: jq, embedded (WebAssembly), over NDJSON records.
 *
 * jq embedded in jn: `compileJq(expr)` checks a jq expression and returns a
 * filter that runs it over NDJSON records, with the semantics of
 * `jq -c EXPR` on each record.
 *
 * The engine is jq 1.8 compiled to WebAssembly (npm `jq-wasm`, its `inline`
 * entry: the wasm is embedded in the JavaScript as base64, so it needs no file
 * or network access and survives `deno compile`). One instance is loaded per
 * process, on the first compile.
 *
 * Guarantees:
 * - a syntax or compile error throws `UsageError` with jq's own message on one
 *   line (`Invalid jq expression ".a |": syntax error, unexpected end of file at
 *   line 1, column 4`) and a hint;
 * - outputs are compact JSON exactly as `jq -c` prints them (jq 1.8: number
 *   literals keep their spelling, `1.0` stays `1.0`), in input order;
 * - a record on which the expression raises an error yields an `error` event
 *   with jq's message and the run goes on with the next record, as jq does;
 *   a line that is not one JSON value yields an `invalid` event and the run
 *   goes on (jq would stop: jn keeps every other record);
 * - `halt` / `halt_error` end the run: a `halt` event carries jq's exit code
 *   and what it wrote to stderr, and no further record is read;
 * - `input`/`inputs` raise an error on every record (each record is filtered
 *   on its own); `$ENV` and `env` are the `env` option (empty by default);
 * - an expression that makes jq abort (`def f: [f]; f` exhausts its stack)
 *   throws `UsageError` naming the line, not an internal error: the program
 *   is at fault, and the next run starts a fresh jq instance.
 *
 * Exit codes are the caller's: the CLI prints `error`/`invalid` events as
 * `jn: filter: line N: MESSAGE` and exits 1 (SPEC §6: records failed) at the
 * end; `halt_error` exits with jq's code; `halt` exits 0.
 *
 * @module
 */

import { loadJq } from "jq-wasm/inline";
import { JnError, UsageError } from "../errors.ts";
import type { NdjsonLine } from "../ndjson/read.ts";
import { decodeRun, ENV_ARG, type JqEvent, newMarker, wrapExpression } from "./jq_program.ts";

export type { JqEvent } from "./jq_program.ts";

/** Options of `compileJq`. */
export interface CompileJqOptions {
  /** What `$ENV` and `env` return; jq-wasm has no real environment. Default `{}`. */
  env?: Record<string, string>;
  /** Most lines per jq run (default 8192). */
  maxBatchLines?: number;
  /** Most characters per jq run, whole lines (default 8 MiB). */
  maxBatchChars?: number;
}

/** A compiled jq expression. */
export interface JqFilter {
  /** The expression as given. */
  readonly expr: string;
  /** The embedded jq's version, e.g. `jq-1.8.2`. */
  readonly jqVersion: string;
  /**
   * Runs the expression on each record, synchronously. A string record gets
   * its 1-based index as line number. A halt ends the list.
   */
  run(records: readonly (string | NdjsonLine)[]): JqEvent[];
  /** Runs over batches of lines (e.g. `readLineBatches(stdin)`); stops after a halt. */
  stream(batches: AsyncIterable<readonly NdjsonLine[]>): AsyncGenerator<JqEvent, void, undefined>;
}

type Engine = Awaited<ReturnType<typeof loadJq>>;
let engine: Promise<Engine> | undefined;

/**
 * Compiles `expr`; throws `UsageError` when jq rejects it.
 *
 * @example
 * ```ts
 * const filter = await compileJq('.text | contains("Phase 3")');
 * filter.run(['{"text":"a Phase 3 trial"}']);
 * // [{ kind: "output", line: 1, json: "true" }]
 * ```
 */
export async function compileJq(expr: string, options: CompileJqOptions = {}): Promise<JqFilter> {
  engine ??= loadJq().catch((cause) => {
    engine = undefined;
    throw new JnError("Cannot load the embedded jq", { cause });
  });
  const jq = await engine;
  const bare = jq.raw("", expr, ["-c"]);
  if (bare.exitCode !== 0) throw compileError(expr, bare.stderr);
  const marker = newMarker();
  const program = wrapExpression(expr, marker);
  const flags = ["-R", "-c", "--argjson", ENV_ARG, JSON.stringify(options.env ?? {})];
  if (jq.raw("", program, flags).exitCode !== 0) {
    throw new UsageError(`Invalid jq expression ${quote(expr)}: it is not one complete program`, {
      hint: "check that its parentheses and brackets balance",
    });
  }
  const maxLines = options.maxBatchLines ?? 8192;
  const maxChars = options.maxBatchChars ?? 8 * 1024 * 1024;

  const runBatch = (lines: readonly NdjsonLine[]): JqEvent[] => {
    // -R reads one record per line, so a record must not contain a newline;
    // outside strings a newline is whitespace, inside one it is invalid JSON.
    const input = lines.map((l) => l.text.replaceAll("\n", " ")).join("\n");
    let result;
    try {
      result = quietly(() => jq.raw(input, program, flags));
    } catch (cause) {
      engine = undefined; // a trapped wasm instance is unusable
      const first = lines[0]?.number ?? 0;
      const where = lines.length > 1
        ? `one of lines ${first}–${lines.at(-1)!.number}`
        : `line ${first}`;
      throw new UsageError(`The jq expression ${quote(expr)} made jq abort on ${where}`, {
        cause,
        hint: "it may recurse without end or need too much memory: simplify it",
      });
    }
    return decodeRun(result, lines, marker);
  };

  const run = (lines: readonly NdjsonLine[]): JqEvent[] => {
    const events: JqEvent[] = [];
    for (const batch of slices(lines, maxLines, maxChars)) {
      const produced = runBatch(batch);
      for (const event of produced) events.push(event);
      if (produced.at(-1)?.kind === "halt") break;
    }
    return events;
  };

  return {
    expr,
    jqVersion: jq.version,
    run: (records) =>
      run(records.map((r, i) => (typeof r === "string" ? { text: r, number: i + 1 } : r))),
    async *stream(batches) {
      for await (const lines of batches) {
        const events = run(lines);
        yield* events;
        if (events.at(-1)?.kind === "halt") return;
      }
    },
  };
}

/**
 * Runs `action` with `console.error` silenced: the wasm runtime prints
 * `Aborted()` there when jq traps, and jn reports the trap itself. The run is
 * synchronous, so nothing else can write in between.
 */
function quietly<T>(action: () => T): T {
  const target = globalThis.console;
  const original = target.error;
  target.error = () => {};
  try {
    return action();
  } finally {
    target.error = original;
  }
}

/** Cuts `lines` into runs of at most `maxLines` lines and about `maxChars` characters. */
function* slices(
  lines: readonly NdjsonLine[],
  maxLines: number,
  maxChars: number,
): Generator<readonly NdjsonLine[]> {
  let start = 0;
  let chars = 0;
  for (let i = 0; i < lines.length; i++) {
    chars += lines[i].text.length + 1;
    if (i + 1 - start >= maxLines || chars >= maxChars || i === lines.length - 1) {
      yield lines.slice(start, i + 1);
      start = i + 1;
      chars = 0;
    }
  }
}

/** `UsageError` from jq's compile diagnostics, cleaned to one line. */
function compileError(expr: string, stderr: string): UsageError {
  const messages = stderr.split("\n")
    .filter((line) => line.startsWith("jq: error: "))
    .map((line) =>
      line.slice("jq: error: ".length)
        .replace(/:$/, "")
        .replace(" at <top-level>, line ", " at line ")
    );
  let text = [...new Set(messages)].join("; ") || stderr.split("\n")[0] || "jq rejected it";
  const quoting = /Unix shell quoting issues|INVALID_CHARACTER/.test(text);
  text = text.replaceAll(" (Unix shell quoting issues?)", "");
  return new UsageError(`Invalid jq expression ${quote(expr)}: ${text}`, {
    hint: quoting
      ? "check the shell quoting: put the whole expression in single quotes"
      : "see the jq manual: https://jqlang.org/manual/",
  });
}

/** The expression quoted for a message, shortened when long. */
function quote(expr: string): string {
  const oneLine = expr.replaceAll(/\s+/g, " ").trim();
  return JSON.stringify(oneLine.length > 80 ? `${oneLine.slice(0, 77)}...` : oneLine);
}
