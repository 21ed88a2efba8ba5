/**
 * Checks the fields of `_meta.json` and of tool files (SPEC §4) before
 * anything uses them: a field of the wrong type is a `ConfigError` pointing at
 * its file, line and column. Fields jn does not know are kept as they are
 * (profiles carry notes such as `created` or `tested_with`).
 *
 * @module
 */

import { ConfigError } from "../errors.ts";
import { globProblem } from "../text/glob.ts";
import type { JsoncDoc } from "./load.ts";
import type { MetaDef, ToolDef } from "./types.ts";

type Path = (string | number)[];
type Where = (path: Path) => string;

/**
 * How a check reports: by throwing the first problem (default), or, given
 * `problems`, by gathering every problem there (one per field, each a
 * ConfigError) and going on — `jn profile create` shows them all at once.
 */
export interface CheckOptions {
  problems?: ConfigError[];
}

/** Validates a parsed `_meta.json`. */
export function checkMeta(doc: JsoncDoc, options: CheckOptions = {}): MetaDef {
  const meta = doc.value as Record<string, unknown>;
  const at = doc.where;
  const each = gather(options.problems);
  each(() => {
    if (!("launcher" in meta)) return;
    fail(at(["launcher"]), `"launcher" is the seed's create format, not a _meta.json field`, {
      hint: `move "command", "args" and "transport" to the top level of _meta.json`,
    });
  });
  each(() => optionalString(meta, "command", at, { nonEmpty: true }));
  each(() => stringList(meta, "args", at));
  each(() => stringList(meta, "roots", at));
  each(() => globList(meta, "allow_tools", at));
  each(() => globList(meta, "deny_tools", at));
  each(() => stringMap(meta, "env", at));
  each(() => optionalString(meta, "cwd", at, { nonEmpty: true }));
  each(() => oneOf(meta, "transport", ["stdio", "http", "sse"], at));
  each(() => optionalString(meta, "url", at, { nonEmpty: true }));
  each(() => stringMap(meta, "headers", at));
  each(() => optionalString(meta, "description", at));
  each(() => optionalString(meta, "server_version", at));
  each(() => optionalString(meta, "sampling_command", at, { nonEmpty: true }));
  each(() => elicitAnswers(meta, at));
  each(() => optionalString(meta, "schema_updated", at));
  each(() => oneOf(meta, "schema_validation", ["warn", "error", "ignore"], at));
  each(() => {
    const hash = meta.schema_hash;
    if (hash === undefined || (typeof hash === "string" && /^[0-9a-f]{32}$/.test(hash))) return;
    fail(at(["schema_hash"]), `"schema_hash" must be 32 lowercase hex digits (an MD5)`, {
      hint: "let jn write it: jn profile update @SERVER",
    });
  });
  each(() => {
    if (meta.inherit_tools === undefined || typeof meta.inherit_tools === "boolean") return;
    fail(at(["inherit_tools"]), `"inherit_tools" must be true or false`);
  });
  each(() => {
    if (meta.tools === undefined) return;
    if (!isPlainObject(meta.tools)) fail(at(["tools"]), `"tools" must be an object`);
    for (const [name, def] of Object.entries(meta.tools as Record<string, unknown>)) {
      each(() => {
        if (name === "") fail(at(["tools"]), 'a tool name in "tools" is empty');
        checkToolValue(def, at, ["tools", name], options);
      });
    }
  });
  return meta as MetaDef;
}

/** Validates a parsed tool file. */
export function checkToolFile(doc: JsoncDoc, options: CheckOptions = {}): ToolDef {
  return checkToolValue(doc.value, doc.where, [], options);
}

function checkToolValue(value: unknown, at: Where, prefix: Path, options: CheckOptions): ToolDef {
  const name = prefix.length === 0 ? "the tool file" : `"${prefix.join(".")}"`;
  if (!isPlainObject(value)) fail(at(prefix), `${name} must be an object`);
  const def = value as Record<string, unknown>;
  const sub = (path: Path) => at([...prefix, ...path]);
  const each = gather(options.problems);
  each(() => optionalString(def, "tool", sub, { nonEmpty: true, prefix }));
  each(() => optionalString(def, "description", sub, { prefix }));
  each(() => optionalString(def, "output_format", sub, { prefix }));
  each(() => optionalString(def, "server_description_md5", sub, { prefix }));
  for (const key of ["parameters", "defaults", "inputSchema", "outputSchema"]) {
    each(() => {
      if (def[key] === undefined || isPlainObject(def[key])) return;
      fail(sub([key]), `${label(prefix, key)} must be an object`);
    });
  }
  each(() => {
    if (def.examples === undefined || Array.isArray(def.examples)) return;
    fail(sub(["examples"]), `${label(prefix, "examples")} must be an array`);
  });
  each(() => {
    const notes = def.notes;
    if (
      notes === undefined || typeof notes === "string" ||
      (Array.isArray(notes) && notes.every((n) => typeof n === "string"))
    ) return;
    fail(sub(["notes"]), `${label(prefix, "notes")} must be a string or an array of strings`);
  });
  return def as ToolDef;
}

/** Runs a check: a problem is thrown, or, with a `problems` list, added to it. */
function gather(problems: ConfigError[] | undefined): (check: () => void) => void {
  return (check) => {
    if (problems === undefined) return check();
    try {
      check();
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      problems.push(error);
    }
  };
}

function elicitAnswers(meta: Record<string, unknown>, at: Where): void {
  const answers = meta.elicit_answers;
  if (answers === undefined) return;
  if (isPlainObject(answers) || (Array.isArray(answers) && answers.every(isPlainObject))) return;
  fail(at(["elicit_answers"]), `"elicit_answers" must be an object (or an array of objects)`, {
    hint: `e.g. "elicit_answers": {"name": "Ada"}: the answers to the server's forms`,
  });
}

function label(prefix: Path, key: string): string {
  return `"${[...prefix, key].join(".")}"`;
}

function optionalString(
  object: Record<string, unknown>,
  key: string,
  at: Where,
  options: { nonEmpty?: boolean; prefix?: Path } = {},
): void {
  const value = object[key];
  if (value === undefined) return;
  const name = label(options.prefix ?? [], key);
  if (typeof value !== "string") fail(at([key]), `${name} must be a string`);
  if (options.nonEmpty && value === "") fail(at([key]), `${name} is empty`);
}

function stringList(object: Record<string, unknown>, key: string, at: Where): void {
  const value = object[key];
  if (value === undefined) return;
  if (!Array.isArray(value)) fail(at([key]), `"${key}" must be an array of strings`);
  (value as unknown[]).forEach((item, i) => {
    if (typeof item !== "string") {
      fail(at([key, i]), `"${key}[${i}]" must be a string, got ${JSON.stringify(item)}`);
    }
  });
}

/** A list of tool-name globs (lib/text/glob.ts): each entry a valid, non-empty pattern. */
function globList(object: Record<string, unknown>, key: string, at: Where): void {
  const value = object[key];
  if (value === undefined) return;
  const hint = 'write globs of tool names: ["search*", "get_?"] (* any run, ? one character)';
  if (!Array.isArray(value)) fail(at([key]), `"${key}" must be an array of globs`, { hint });
  (value as unknown[]).forEach((item, i) => {
    if (typeof item !== "string") {
      fail(at([key, i]), `"${key}[${i}]" must be a string, got ${JSON.stringify(item)}`, { hint });
    }
    const problem = (item as string).includes("${")
      ? "a glob takes no ${VAR} (write the names out)"
      : globProblem(item as string);
    if (problem !== undefined) {
      fail(at([key, i]), `"${key}[${i}]" is not a valid glob: ${problem}`, { hint });
    }
  });
}

function stringMap(object: Record<string, unknown>, key: string, at: Where): void {
  const value = object[key];
  if (value === undefined) return;
  if (!isPlainObject(value)) fail(at([key]), `"${key}" must be an object of strings`);
  for (const [name, item] of Object.entries(value as Record<string, unknown>)) {
    if (typeof item !== "string") {
      fail(at([key, name]), `"${key}.${name}" must be a string (quote it: "${String(item)}")`);
    }
  }
}

function oneOf(object: Record<string, unknown>, key: string, allowed: string[], at: Where): void {
  const value = object[key];
  if (value === undefined || (typeof value === "string" && allowed.includes(value))) return;
  fail(at([key]), `"${key}" must be one of ${allowed.join(", ")}, got ${JSON.stringify(value)}`);
}

function fail(where: string, message: string, options: { hint?: string } = {}): never {
  throw new ConfigError(`Invalid profile ${where}: ${message}`, {
    path: where.replace(/:\d+:\d+$/, ""),
    hint: options.hint,
  });
}

/** A JSON object (not an array, not null). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
