/**
 * Which argument names a tool's `inputSchema` declares, and the arguments a
 * call gives that it does not: each one a violation naming the closest
 * declared name (`repet` → did you mean `repeat`?).
 *
 * The policy (README "Arguments", docs/arguments.md): a schema is *closed*
 * when it has a `properties` keyword (at its root, or in an `allOf`/`anyOf`/
 * `oneOf` branch, local `$ref`s followed) and neither `additionalProperties`
 * nor `unevaluatedProperties` allows more (`true` or a schema). JSON Schema
 * reads a missing `additionalProperties` as "anything goes", but almost no
 * MCP server writes the keyword, so a name the tool does not list is far more
 * often a typo than a wish; `--allow-unknown` (`allowUnknown`) sends it
 * anyway. A schema without `properties` (`{"type": "object"}`, `true`) is
 * open: it says nothing about names. Names matching a `patternProperties`
 * pattern count as declared. Pure, no I/O.
 *
 * @module
 */

import type { ArgumentViolation } from "../errors.ts";
import { followRefs, isObject } from "../schema/ref.ts";
import { visibleLine, visibleNames } from "../output/visible.ts";
import { closest } from "../text/suggest.ts";
import type { JsonSchema } from "../types.ts";

/** What a schema says about argument names. */
export type DeclaredArguments =
  /** Any name is accepted. */
  | { kind: "open" }
  /** Only `names`, and names matching `patterns`. */
  | { kind: "closed"; names: string[]; patterns: RegExp[] };

const MAX_DEPTH = 16;

/**
 * The argument names `schema` declares.
 *
 * @example
 * ```ts
 * declaredArguments({ type: "object", properties: { text: {}, repeat: {} } });
 * // { kind: "closed", names: ["text", "repeat"], patterns: [] }
 * declaredArguments({ type: "object" }); // { kind: "open" }
 * ```
 */
export function declaredArguments(schema: JsonSchema | undefined): DeclaredArguments {
  const names = new Set<string>();
  const patterns: RegExp[] = [];
  let sawProperties = false;
  const visit = (node: unknown, depth: number): boolean => {
    if (!isObject(node) || depth > MAX_DEPTH) return node !== false;
    const followed = followRefs(node, schema);
    if (followed.cyclic) return true;
    const s = followed.schema;
    if (opens(s.additionalProperties) || opens(s.unevaluatedProperties)) return false;
    if (isObject(s.properties)) {
      sawProperties = true;
      for (const name of Object.keys(s.properties)) names.add(name);
    }
    if (isObject(s.patternProperties)) {
      sawProperties = true;
      for (const source of Object.keys(s.patternProperties)) {
        try {
          patterns.push(new RegExp(source, "u"));
        } catch {
          return false; // a pattern jn cannot read: leave the names to the server
        }
      }
    }
    for (const key of ["allOf", "anyOf", "oneOf"] as const) {
      const branches = s[key];
      if (!Array.isArray(branches)) continue;
      for (const branch of branches) if (!visit(branch, depth + 1)) return false;
    }
    return true;
  };
  if (!visit(schema, 0) || !sawProperties) return { kind: "open" };
  return { kind: "closed", names: [...names], patterns };
}

/** `additionalProperties`/`unevaluatedProperties` that let other names in. */
function opens(keyword: unknown): boolean {
  return keyword !== undefined && keyword !== false;
}

/** Whether `name` is an argument the schema declares. */
export function isDeclared(declared: DeclaredArguments, name: string): boolean {
  return declared.kind === "open" || declared.names.includes(name) ||
    declared.patterns.some((pattern) => pattern.test(name));
}

/**
 * One violation per name of `given` the schema does not declare, in order,
 * each saying what the closest declared name is (or what the tool takes).
 *
 * @example
 * ```ts
 * const schema = { type: "object", properties: { text: {}, repeat: {} } };
 * unknownArguments(["text", "repet"], schema);
 * // [{ path: "repet", message: 'is unknown: did you mean "repeat"?', unknown: true }]
 * ```
 */
export function unknownArguments(
  given: Iterable<string>,
  schema: JsonSchema | undefined,
): ArgumentViolation[] {
  return undeclaredArguments(given, declaredArguments(schema));
}

/** {@linkcode unknownArguments} with the schema already read (once for many calls). */
export function undeclaredArguments(
  given: Iterable<string>,
  declared: DeclaredArguments,
): ArgumentViolation[] {
  if (declared.kind === "open") return [];
  const violations: ArgumentViolation[] = [];
  const names = [...given];
  // A name already given is not what a typo meant (`c` beside `a` means `b`).
  const free = declared.names.filter((name) => !names.includes(name));
  for (const name of names) {
    if (isDeclared(declared, name)) continue;
    violations.push({
      path: name,
      message: unknownMessage(name, declared.names, free),
      unknown: true,
    });
  }
  return violations;
}

function unknownMessage(name: string, names: string[], free: string[]): string {
  const near = closest(name, free) ?? closest(name, names);
  if (near !== undefined) return `is unknown: did you mean "${visibleLine(near)}"?`;
  if (names.length === 0) return "is unknown: the tool takes no arguments";
  return `is unknown: its arguments are ${visibleNames(names)}`;
}
