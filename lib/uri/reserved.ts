/**
 * The query keys a source reserves for jn (`?tool=`, `?resource=`, …): in a
 * URI they name what to do, never a tool's argument. A tool whose own
 * argument has one of these names gets it through `--arg NAME=VALUE` or
 * `--args '{"NAME": …}'` (SPEC §2); the hint below says so wherever such a
 * clash shows. Pure, no I/O.
 *
 * @module
 */

/** Every reserved query key (`session=` is one too, beside `task=`). */
export const RESERVED_QUERY_KEYS: readonly string[] = [
  "tool",
  "resource",
  "prompt",
  "list",
  "command",
  "task",
];

/** Whether `key` is a reserved query key. */
export function isReservedKey(key: string): boolean {
  return RESERVED_QUERY_KEYS.includes(key);
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
