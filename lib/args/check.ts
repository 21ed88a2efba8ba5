/**
 * The violations of one call's arguments, in the order jn reports them:
 * names the schema does not declare (lib/args/declared.ts), keys given
 * several times for a one-value property, then the schema's own findings
 * (lib/args/validate.ts); and the hint that goes with them. Shared by `cat`
 * (lib/args/coerce.ts) and `put` (lib/put/arguments.ts). Pure, no I/O.
 *
 * @module
 */

import type { ArgumentViolation } from "../errors.ts";
import type { JsonSchema } from "../types.ts";
import { isReservedKey, reservedKeyHint } from "../uri/reserved.ts";
import type { SchemaEngine } from "./validate.ts";

/** What {@linkcode checkedViolations} checks against. */
export interface CheckOptions {
  /** The tool's `inputSchema`. */
  schema: JsonSchema;
  /** The JSON Schema engine. */
  engine: SchemaEngine;
  /** Undeclared names are sent, not reported. */
  allowUnknown?: boolean;
}

/**
 * The violations of a call's arguments: undeclared names first (unless
 * allowed), then repeated keys, then the schema's own findings, without
 * saying twice what is already said (ajv's `additionalProperties` finding
 * for an undeclared name, any finding about a repeated key).
 */
export function checkedViolations(
  value: Record<string, unknown>,
  options: CheckOptions,
  found: { repeated?: ArgumentViolation[]; unknown: ArgumentViolation[] },
): ArgumentViolation[] {
  const repeated = found.repeated ?? [];
  const taken = new Set(repeated.map((v) => v.path));
  const undeclared = new Set(found.unknown.map((v) => v.path));
  const fromSchema = options.engine.findViolations(value, options.schema).filter((v) =>
    !taken.has(v.path.split("/")[0]) &&
    !(undeclared.has(v.path) && v.message === "is not allowed by the schema")
  );
  return [...(options.allowUnknown ? [] : found.unknown), ...repeated, ...fromSchema];
}

/** What to do about `violations`: send undeclared names anyway, or use --arg for a reserved name. */
export function violationHint(violations: ArgumentViolation[]): string | undefined {
  const hints: string[] = [];
  if (violations.some((v) => v.unknown)) {
    hints.push("--allow-unknown sends arguments the tool's schema does not declare");
  }
  const clash = violations.filter((v) => !v.unknown).map((v) => v.path.split("/")[0])
    .find(isReservedKey);
  if (clash !== undefined) hints.push(reservedKeyHint(clash));
  return hints.length > 0 ? hints.join("; ") : undefined;
}
