/**
 * jn's own Deno permission set, as written in deno.json `permissions.jn`,
 * turned into command-line flags. One source of truth for the `jn` task, the
 * tests (which run `deno run` with exactly these flags), `deno compile`, and
 * jn re-launching itself from source (the `@demo` server). A refusal of one
 * of them is read back by lib/errors.ts (`describeRefusal`).
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
