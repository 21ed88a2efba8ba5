/**
 * The checks of one object's fields that lib/profile/fields.ts runs: each
 * adds a problem with its field's JSON path rather than throwing, so that a
 * whole document's problems are found at once (strings, string lists and
 * maps, tool-name globs, one-of values, and `defaults` of the types their
 * parameters declare).
 *
 * @module
 */

import { globProblem } from "../text/glob.ts";

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

/** A JSON object (not an array, not null). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The problems of one object's fields, found by the checks below. */
export class Problems {
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
