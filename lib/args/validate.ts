/**
 * The JSON Schema engine of argument validation: checks a tool's arguments
 * against its `inputSchema` with ajv and turns ajv's errors into
 * `ArgumentViolation`s that name the argument and say what is wrong in plain
 * words. Dialect by `$schema`: draft-04…07 use ajv's default class, 2019-09
 * uses Ajv2019, 2020-12 and schemas without `$schema` use Ajv2020. Formats
 * are not checked. A schema ajv cannot compile is not enforced (the server
 * remains the judge). Validators are compiled once per schema object; each
 * dialect's ajv is only instantiated on first use. Pure, no I/O.
 *
 * The engine is created from the ajv classes the caller hands in
 * ({@linkcode createSchemaEngine}): jn's are the copy bundled in the MCP SDK
 * (lib/session/ajv_engines.ts); this module loads no ajv itself.
 *
 * @module
 */

import type { ErrorObject, Options, ValidateFunction } from "ajv";
import type { ArgumentViolation } from "../errors.ts";
import { isObject } from "../schema/ref.ts";
import type { JsonSchema } from "../types.ts";
import type { AjvEngines, AjvInstance } from "./ajv_engines.ts";
import { isTriviallyValid } from "./trivially_valid.ts";

type Dialect = "draft7" | "2019" | "2020";

const OPTIONS: Options = {
  allErrors: true,
  strict: false,
  validateFormats: false,
  // Servers declare many `$schema`s (even draft-04) and reuse `$id`s across tools.
  validateSchema: false,
  addUsedSchema: false,
};

/** Checks values against JSON Schemas. */
export interface SchemaEngine {
  /** Every violation of `schema` by `value`, in ajv's (schema) order; `[]` when valid. */
  findViolations(value: unknown, schema: JsonSchema): ArgumentViolation[];
}

/**
 * A schema engine over the given ajv classes.
 *
 * @example
 * ```ts
 * const engine = createSchemaEngine(await sdkAjvEngines());
 * engine.findViolations({ n: "x" }, { type: "object", properties: { n: { type: "integer" } } });
 * // [{ path: "n", message: "must be integer", value: "x" }]
 * ```
 */
export function createSchemaEngine(engines: AjvEngines): SchemaEngine {
  const instances = new Map<Dialect, AjvInstance>();
  const compiled = new WeakMap<object, ValidateFunction | null>();
  const ajvFor = (dialect: Dialect): AjvInstance => {
    let ajv = instances.get(dialect);
    if (ajv === undefined) {
      const Engine = dialect === "draft7"
        ? engines.draft7()
        : dialect === "2019"
        ? engines.v2019()
        : engines.v2020();
      ajv = new Engine(OPTIONS);
      instances.set(dialect, ajv);
    }
    return ajv;
  };
  const validatorFor = (schema: JsonSchema): ValidateFunction | null => {
    if (!isObject(schema)) return null;
    let validate = compiled.get(schema);
    if (validate === undefined) {
      try {
        validate = ajvFor(dialectOf(schema)).compile(schema);
      } catch {
        validate = null;
      }
      compiled.set(schema, validate);
    }
    return validate;
  };
  return {
    findViolations(value, schema) {
      if (isTriviallyValid(value, schema)) return [];
      const validate = validatorFor(schema);
      if (validate === null || validate(value)) return [];
      return toViolations(validate.errors ?? [], value);
    },
  };
}

function dialectOf(schema: JsonSchema): Dialect {
  const uri = typeof schema.$schema === "string" ? schema.$schema : "";
  if (/draft-0[3-7]\b/.test(uri)) return "draft7";
  if (uri.includes("2019-09")) return "2019";
  return "2020";
}

/** Maps ajv errors to violations; the branch errors of `anyOf`/`oneOf` are folded into one. */
function toViolations(errors: ErrorObject[], value: unknown): ArgumentViolation[] {
  const branchesOf = unionBranches(errors);
  const folded = new Set([...branchesOf.values()].flat());
  const seen = new Set<string>();
  const violations: ArgumentViolation[] = [];
  for (const error of errors) {
    if (folded.has(error)) continue;
    const violation = toViolation(error, { value, branches: branchesOf.get(error) ?? [] });
    const id = `${violation.path}\0${violation.message}`;
    if (seen.has(id)) continue;
    seen.add(id);
    violations.push(violation);
  }
  return violations;
}

/**
 * The errors of each failed `anyOf`/`oneOf`'s branches. ajv reports them just
 * before the union's own error; their schemaPath is under the union's, or
 * anywhere when a branch is a `$ref`. The walk back stops at an error outside
 * the union's instance or from a sibling keyword of the same schema.
 */
function unionBranches(errors: ErrorObject[]): Map<ErrorObject, ErrorObject[]> {
  const result = new Map<ErrorObject, ErrorObject[]>();
  for (const [k, union] of errors.entries()) {
    if (union.keyword !== "anyOf" && union.keyword !== "oneOf") continue;
    const parent = union.schemaPath.slice(0, union.schemaPath.lastIndexOf("/"));
    const branches: ErrorObject[] = [];
    for (let j = k - 1; j >= 0; j--) {
      const e = errors[j];
      const inInstance = e.instancePath === union.instancePath ||
        e.instancePath.startsWith(`${union.instancePath}/`);
      const sibling = e.schemaPath.startsWith(`${parent}/`) &&
        !e.schemaPath.startsWith(`${union.schemaPath}/`);
      if (!inInstance || sibling) break;
      branches.unshift(e);
    }
    result.set(union, branches);
  }
  return result;
}

function toViolation(
  error: ErrorObject,
  ctx: { value: unknown; branches: ErrorObject[] },
): ArgumentViolation {
  const segments = pointerSegments(error.instancePath);
  const params = error.params as Record<string, unknown>;
  const at = (extra: string[], message: string, withValue = true): ArgumentViolation => {
    const path = [...segments, ...extra];
    const violation: ArgumentViolation = { path: path.join("/"), message };
    const found = valueAt(ctx.value, path);
    if (withValue && found.present) violation.value = found.value;
    return violation;
  };
  switch (error.keyword) {
    case "required":
      return at([String(params.missingProperty)], "is required", false);
    case "dependentRequired":
    case "dependencies":
      return at(
        [String(params.missingProperty)],
        `is required when "${params.property}" is given`,
        false,
      );
    case "additionalProperties":
      return at([String(params.additionalProperty)], "is not allowed by the schema");
    case "unevaluatedProperties":
      return at([String(params.unevaluatedProperty)], "is not allowed by the schema");
    case "anyOf":
    case "oneOf":
      return at([], unionMessage(error, ctx.branches));
    default: {
      const expected = expectation(error);
      return at([], expected === undefined ? error.message ?? "is invalid" : `must be ${expected}`);
    }
  }
}

/** What a `type`, `enum` or `const` error expects, e.g. `integer` or `one of: a, b`. */
function expectation(error: ErrorObject): string | undefined {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "type":
      return typeNames(params.type);
    case "enum":
      return `one of: ${(params.allowedValues as unknown[]).map(show).join(", ")}`;
    case "const":
      return show(params.allowedValue);
    default:
      return undefined;
  }
}

function unionMessage(error: ErrorObject, branches: ErrorObject[]): string {
  if (error.keyword === "oneOf" && Array.isArray(error.params.passingSchemas)) {
    return "matches more than one of the allowed forms";
  }
  const direct = branches.filter((b) => b.instancePath === error.instancePath);
  const expected = direct.map(expectation);
  if (direct.length === branches.length && direct.length > 0 && !expected.includes(undefined)) {
    const types = direct.filter((b) => b.keyword === "type").flatMap((b) =>
      String(b.params.type).split(",")
    );
    const others = direct.filter((b) => b.keyword !== "type").map(expectation);
    return `must be ${[...(types.length > 0 ? [typeNames(types)] : []), ...others].join(" or ")}`;
  }
  return "does not match any of the allowed forms";
}

function typeNames(type: unknown): string {
  const names = [...new Set(Array.isArray(type) ? type.map(String) : String(type).split(","))];
  return names.length <= 2
    ? names.join(" or ")
    : `${names.slice(0, -1).join(", ")} or ${names[names.length - 1]}`;
}

function show(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

function pointerSegments(pointer: string): string[] {
  if (pointer === "") return [];
  return pointer.slice(1).split("/").map((s) => s.replaceAll("~1", "/").replaceAll("~0", "~"));
}

function valueAt(root: unknown, path: string[]): { present: boolean; value?: unknown } {
  let current = root;
  for (const key of path) {
    if (typeof current !== "object" || current === null || !Object.hasOwn(current, key)) {
      return { present: false };
    }
    current = (current as Record<string, unknown>)[key];
  }
  return { present: true, value: current };
}
