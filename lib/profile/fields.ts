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
import { globProblem } from "../text/glob.ts";
import type { JsoncDoc } from "./load.ts";
import type { MetaDef, ToolDef } from "./types.ts";

/** A field's place in a document: object keys and array indexes. */
export type FieldPath = (string | number)[];

/** One problem of one field. */
export interface FieldProblem {
  /** Where: the field's path in the document checked. */
  path: FieldPath;
  /** What is wrong, without the field's name: `must be a string, got 1`. */
  message: string;
  /** What to do, when there is more to say than the message. */
  hint?: string;
  /** How the message names the field, when not by its path (`the tool file`). */
  subject?: string;
}

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
  out.string("sampling_command", { nonEmpty: true });
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

/** A JSON object (not an array, not null). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
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

/** The problems of one object's fields, found by the checks below. */
class Problems {
  readonly problems: FieldProblem[] = [];
  #object: Record<string, unknown>;
  #prefix: FieldPath;

  constructor(object: Record<string, unknown>, prefix: FieldPath) {
    this.#object = object;
    this.#prefix = prefix;
  }

  add(path: FieldPath, message: string, options: { hint?: string } = {}): void {
    this.problems.push({ path: [...this.#prefix, ...path], message, hint: options.hint });
  }

  string(key: string, options: { nonEmpty?: boolean } = {}): void {
    const value = this.#object[key];
    if (value === undefined) return;
    if (typeof value !== "string") this.add([key], "must be a string");
    else if (options.nonEmpty && value === "") this.add([key], "is empty");
  }

  stringList(key: string): void {
    const value = this.#object[key];
    if (value === undefined) return;
    if (!Array.isArray(value)) return this.add([key], "must be an array of strings");
    value.forEach((item, i) => {
      if (typeof item !== "string") {
        this.add([key, i], `must be a string, got ${JSON.stringify(item)}`);
      }
    });
  }

  /** A list of tool-name globs (lib/text/glob.ts): each entry a valid, non-empty pattern. */
  globList(key: string): void {
    const value = this.#object[key];
    if (value === undefined) return;
    const hint = 'write globs of tool names: ["search*", "get_?"] (* any run, ? one character)';
    if (!Array.isArray(value)) return this.add([key], "must be an array of globs", { hint });
    value.forEach((item, i) => {
      if (typeof item !== "string") {
        return this.add([key, i], `must be a string, got ${JSON.stringify(item)}`, { hint });
      }
      const problem = item.includes("${")
        ? "a glob takes no ${VAR} (write the names out)"
        : globProblem(item);
      if (problem !== undefined) this.add([key, i], `is not a valid glob: ${problem}`, { hint });
    });
  }

  stringMap(key: string): void {
    const value = this.#object[key];
    if (value === undefined) return;
    if (!isPlainObject(value)) return this.add([key], "must be an object of strings");
    for (const [name, item] of Object.entries(value)) {
      if (typeof item !== "string") {
        this.add([key, name], `must be a string (quote it: "${String(item)}")`);
      }
    }
  }

  oneOf(key: string, allowed: string[]): void {
    const value = this.#object[key];
    if (value === undefined || (typeof value === "string" && allowed.includes(value))) return;
    this.add([key], `must be one of ${allowed.join(", ")}, got ${JSON.stringify(value)}`);
  }

  /** Each default of a declared parameter (`parameters`, `inputSchema`) of the declared type. */
  defaultTypes(): void {
    const defaults = this.#object.defaults;
    if (!isPlainObject(defaults)) return;
    for (const [name, value] of Object.entries(defaults)) {
      const types = declaredTypes(this.#object, name);
      if (types === undefined || types.some((type) => TYPE_TESTS[type](value))) continue;
      this.add(
        ["defaults", name],
        `expected ${types.map(article).join(" or ")}, got ${JSON.stringify(value)}`,
      );
    }
  }
}

/** Each JSON Schema type, and whether a value has it. */
const TYPE_TESTS: Record<string, (value: unknown) => boolean> = {
  string: (value) => typeof value === "string",
  number: (value) => typeof value === "number",
  integer: Number.isInteger,
  boolean: (value) => typeof value === "boolean",
  object: isPlainObject,
  array: Array.isArray,
  null: (value) => value === null,
};

/** The JSON types a tool declares for parameter `name`, when it declares any jn knows. */
function declaredTypes(tool: Record<string, unknown>, name: string): string[] | undefined {
  const schema = tool.inputSchema;
  const properties = isPlainObject(schema) && isPlainObject(schema.properties)
    ? schema.properties
    : undefined;
  const fromSchema = properties && Object.hasOwn(properties, name) ? properties[name] : undefined;
  const parameters = isPlainObject(tool.parameters) ? tool.parameters : undefined;
  const declared = fromSchema ??
    (parameters && Object.hasOwn(parameters, name) ? parameters[name] : undefined);
  const type = isPlainObject(declared) ? declared.type : undefined;
  const types = typeof type === "string" ? [type] : Array.isArray(type) ? type : [];
  return types.length > 0 && types.every((t) => Object.hasOwn(TYPE_TESTS, t)) ? types : undefined;
}

function article(type: string): string {
  return type === "null" ? "null" : `${/^[aeiou]/.test(type) ? "an" : "a"} ${type}`;
}
