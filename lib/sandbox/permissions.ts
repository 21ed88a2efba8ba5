/**
 * jn's own Deno permission set, as written in deno.json `permissions.jn`,
 * turned into command-line flags. One source of truth for the `jn` task, the
 * tests (which run `deno run` with exactly these flags), `deno compile`, and
 * jn re-launching itself from source (the `@demo` server).
 *
 * Also reads Deno's permission refusals back: {@linkcode describeRefusal}
 * names the exact flag (with its value) that would have allowed the access,
 * so that a refusal is one line saying what to add.
 *
 * @module
 */

import config from "../../deno.json" with { type: "json" };

/** A permission value in deno.json: everything, nothing, or a list. */
export type PermissionValue = boolean | string[];

/** The permissions Deno knows, in the order flags are written. */
export const PERMISSION_NAMES = [
  "read",
  "write",
  "env",
  "run",
  "net",
  "sys",
  "ffi",
  "import",
] as const;

/** One Deno permission name. */
export type PermissionName = typeof PERMISSION_NAMES[number];

/** One named permission set of deno.json. */
export type PermissionSet = Partial<Record<PermissionName, PermissionValue>>;

/** The permission set jn runs under. */
export const JN_PERMISSIONS: PermissionSet = config.permissions.jn;

/**
 * `--allow-*` flags for a permission set, plus `--no-prompt`.
 *
 * @example
 * ```ts
 * permissionFlags({ run: ["node", "npx"], read: ["."] });
 * // ["--allow-read=.", "--allow-run=node,npx", "--no-prompt"]
 * ```
 */
export function permissionFlags(set: PermissionSet = JN_PERMISSIONS): string[] {
  const flags: string[] = [];
  for (const name of PERMISSION_NAMES) {
    const value = set[name];
    if (value === true) flags.push(`--allow-${name}`);
    else if (Array.isArray(value) && value.length > 0) {
      flags.push(`--allow-${name}=${value.join(",")}`);
    }
  }
  flags.push("--no-prompt");
  return flags;
}

/** A permission Deno refused, read from its error message. */
export interface Refusal {
  /** The permission, e.g. `run`. */
  name: string;
  /** What was asked for, e.g. `uvx`, `/etc/hosts`, `example.com:443`; absent for "all of it". */
  value?: string;
  /** The flag that allows exactly this access, e.g. `--allow-run=uvx`. */
  flag: string;
}

/** Whether `error` is Deno refusing a permission (`NotCapable` or `PermissionDenied`). */
export function isPermissionRefusal(error: unknown): error is Error {
  return error instanceof Deno.errors.NotCapable ||
    (error instanceof Deno.errors.PermissionDenied &&
      /Requires \w+ access/.test(error.message));
}

/**
 * The refusal described by a Deno permission error, or `undefined` when the
 * message has another shape.
 *
 * @example
 * ```ts
 * describeRefusal(new Error('Requires run access to "uvx", run again with the --allow-run flag'));
 * // { name: "run", value: "uvx", flag: "--allow-run=uvx" }
 * ```
 */
export function describeRefusal(error: Error): Refusal | undefined {
  const match = /Requires (\w+) access(?: to "([^"]*)")?/.exec(error.message);
  if (!match) return undefined;
  const [, name, value] = match;
  // A value with a comma cannot be written in a flag list; name the whole permission then.
  const flag = value === undefined || value.includes(",")
    ? `--allow-${name}`
    : `--allow-${name}=${value}`;
  return value === undefined ? { name, flag } : { name, value, flag };
}

/** The one-line message of a refused permission, e.g. `No run access to "uvx": …`. */
export function refusalMessage(error: Error): string {
  const refusal = describeRefusal(error);
  if (!refusal) return error.message;
  const what = refusal.value === undefined
    ? `${refusal.name} access`
    : `${refusal.name} access to "${refusal.value}"`;
  return `Permission refused: ${what} needs ${refusal.flag} (jn was started without it)`;
}
