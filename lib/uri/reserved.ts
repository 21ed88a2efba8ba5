/**
 * The query keys a source reserves for jn: those of the table
 * (query_keys.ts) that jn reads in every source — the keys that select an
 * operation (`?tool=`, `?resource=`, …) and `command=` — never a tool's
 * argument. (`session=` is jn's only beside `task=`; elsewhere it is an
 * argument, so it is not reserved.) A tool whose own argument has a reserved
 * name gets it through `--arg NAME=VALUE` or `--args '{"NAME": …}'` (SPEC §2);
 * the hints below say so wherever such a clash shows. Pure, no I/O.
 *
 * @module
 */

import { queryKey } from "./query_keys.ts";

/** Whether `key` is a reserved query key: jn reads it in every source. */
export function isReservedKey(key: string): boolean {
  const spec = queryKey(key);
  return spec !== undefined && spec.kind !== "refines";
}

/**
 * How to give a tool's own argument named like a reserved key.
 *
 * @example
 * ```ts
 * reservedKeyHint("list");
 * // '"list" is a reserved query key (?list=…); give the argument as --arg list=VALUE …'
 * ```
 */
export function reservedKeyHint(key: string): string {
  return `"${key}" is a reserved query key (?${key}=… is read by jn); give the tool's own ` +
    `"${key}" argument as --arg ${key}=VALUE or --args '{"${key}": …}'`;
}

/** The short form, for a URI's own errors: where a tool's argument named `key` goes. */
export function argFlagNote(key: string): string {
  return `a tool's own argument named "${key}" goes in --arg ${key}=VALUE`;
}
