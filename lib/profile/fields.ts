/**
 * Checks the fields of `_meta.json` and of tool files (SPEC §4) before
 * anything uses them. The checks collect every problem, each with the JSON
 * path of its field ({@linkcode FieldProblem}): a file on disk reports its
 * first as a `ConfigError` pointing at its file, line and column
 * ({@linkcode checkMeta}, {@linkcode checkToolFile}); a document checked as
 * a whole (`jn profile create`) reports them all at once. Fields jn does not
 * know are kept as they are (profiles carry notes such as `created` or
 * `tested_with`).
 *
 * @module
 */

import { ConfigError } from "../errors.ts";
import type { JsoncDoc } from "./load.ts";
import type { MetaDef, ToolDef } from "./types.ts";
import { type FieldPath, type FieldProblem, isPlainObject, Problems } from "./field_checks.ts";

export { type FieldPath, type FieldProblem, isPlainObject };

/** Validates a parsed `_meta.json`; its first problem is a ConfigError at its line. */
export function checkMeta(doc: JsoncDoc): MetaDef {
  const meta = doc.value as Record<string, unknown>;
  throwFirst(metaProblems(meta, []), doc);
  return meta as MetaDef;
}

/** Validates a parsed tool file; its first problem is a ConfigError at its line. */
export function checkToolFile(doc: JsoncDoc): ToolDef {
  throwFirst(toolProblems(doc.value, []), doc);
  return doc.value as ToolDef;
}

/** Options of {@linkcode metaProblems} and {@linkcode toolProblems}. */
export interface ProblemOptions {
  /**
   * A seed document (`jn profile create`): `launcher` is its field, and each
   * tool's `defaults` must have the types its `parameters` or `inputSchema`
   * declare (a profile on disk is not refused for that: the call judges).
   */
  seed?: boolean;
}

/**
 * Every problem of `_meta.json`'s fields in `meta`, its paths below `prefix`
 * (`["launcher"]` for the launch fields of a seed document).
 */
export function metaProblems(
  meta: Record<string, unknown>,
  prefix: FieldPath,
  options: ProblemOptions = {},
): FieldProblem[] {
  const out = new Problems(meta, prefix);
  if ("launcher" in meta && !options.seed) {
    out.add(["launcher"], `is the seed's create format, not a _meta.json field`, {
      hint: `move "command", "args" and "transport" to the top level of _meta.json`,
    });
  }
  out.string("command", { nonEmpty: true });
  out.stringList("args");
  out.stringList("roots");
  out.globList("allow_tools");
  out.globList("deny_tools");
  out.stringMap("env");
  out.string("cwd", { nonEmpty: true });
  out.oneOf("transport", ["stdio", "http", "sse"]);
  out.string("url", { nonEmpty: true });
  out.stringMap("headers");
  out.string("description");
  out.string("server_version");
  out.string("sampling_command", { nonEmpty: true });
  const answers = meta.elicit_answers;
  if (
    answers !== undefined && !isPlainObject(answers) &&
    !(Array.isArray(answers) && answers.every(isPlainObject))
  ) {
    out.add(["elicit_answers"], "must be an object (or an array of objects)", {
      hint: `e.g. "elicit_answers": {"name": "Ada"}: the answers to the server's forms`,
    });
  }
  out.string("schema_updated");
  out.oneOf("schema_validation", ["warn", "error", "ignore"]);
  const hash = meta.schema_hash;
  if (hash !== undefined && (typeof hash !== "string" || !/^[0-9a-f]{32}$/.test(hash))) {
    out.add(["schema_hash"], "must be 32 lowercase hex digits (an MD5)", {
      hint: "let jn write it: jn profile update @SERVER",
    });
  }
  if (meta.inherit_tools !== undefined && typeof meta.inherit_tools !== "boolean") {
    out.add(["inherit_tools"], "must be true or false");
  }
  if (meta.tools !== undefined) {
    if (!isPlainObject(meta.tools)) out.add(["tools"], "must be an object");
    else {
      for (const [name, def] of Object.entries(meta.tools)) {
        if (name === "") out.add(["tools"], "has a tool with an empty name");
        out.problems.push(...toolProblems(def, [...prefix, "tools", name], options));
      }
    }
  }
  return out.problems;
}

/** Every problem of a tool definition (a tool file, or an entry of `tools`) at `prefix`. */
export function toolProblems(
  value: unknown,
  prefix: FieldPath,
  options: ProblemOptions = {},
): FieldProblem[] {
  if (!isPlainObject(value)) {
    return [{
      path: prefix,
      message: "must be an object",
      subject: prefix.length === 0 ? "the tool file" : undefined,
    }];
  }
  const out = new Problems(value, prefix);
  out.string("tool", { nonEmpty: true });
  out.string("description");
  out.string("output_format");
  out.string("server_description_md5");
  const display = value.server_display_md5;
  if (
    display !== undefined &&
    !(isPlainObject(display) && Object.values(display).every((v) => typeof v === "string"))
  ) {
    out.add(["server_display_md5"], "must be an object of digests (strings)");
  }
  for (const key of ["parameters", "defaults", "inputSchema", "outputSchema"]) {
    if (value[key] !== undefined && !isPlainObject(value[key])) out.add([key], "must be an object");
  }
  if (value.examples !== undefined && !Array.isArray(value.examples)) {
    out.add(["examples"], "must be an array");
  }
  const notes = value.notes;
  if (
    notes !== undefined && typeof notes !== "string" &&
    !(Array.isArray(notes) && notes.every((n) => typeof n === "string"))
  ) {
    out.add(["notes"], "must be a string or an array of strings");
  }
  if (options.seed) out.defaultTypes();
  return out.problems;
}

/** A problem as a file's error names it: `"args[0]" must be a string, got 1`. */
export function describeProblem(problem: FieldProblem): string {
  return `${problem.subject ?? `"${fieldName(problem.path)}"`} ${problem.message}`;
}

/** The JSON path of a field: `$.tools.search.defaults.limit`, `$.args[0]`, `$["a b"]`. */
export function jsonPath(path: FieldPath): string {
  return "$" +
    path.map((part) =>
      typeof part === "number"
        ? `[${part}]`
        : /^[A-Za-z_$][\w$-]*$/.test(part)
        ? `.${part}`
        : `[${JSON.stringify(part)}]`
    ).join("");
}

/** `args[0]`, `tools.s.defaults`: a field as messages about a file name it. */
function fieldName(path: FieldPath): string {
  return path.map((part, i) => typeof part === "number" ? `[${part}]` : `${i ? "." : ""}${part}`)
    .join("");
}

function throwFirst(problems: FieldProblem[], doc: JsoncDoc): void {
  const first = problems[0];
  if (first === undefined) return;
  const where = doc.where(first.path);
  throw new ConfigError(`Invalid profile ${where}: ${describeProblem(first)}`, {
    path: where.replace(/:\d+:\d+$/, ""),
    hint: first.hint,
  });
}
