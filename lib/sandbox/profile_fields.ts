/**
 * The sandbox-related fields of a profile's `_meta.json`, validated in one
 * call for the profile loader:
 *
 * ```jsonc
 * {
 *   "command": "npx", "args": ["-y", "@scope/server"],
 *   "env_passthrough": ["GITHUB_TOKEN"],          // caller variables passed by name
 *   "sandbox": { "network": true, "write": ["./out"] },
 *   "deno_permissions": { "net": ["api.example.com"] }   // "command": "deno" only
 * }
 * ```
 *
 * The loader puts `envPassthrough` into the launch (`StdioLaunch.envPassthrough`,
 * after any it already has) and `sandbox` / `denoPermissions` into the Target;
 * `lib/sandbox/prepare.ts` applies them before the session starts.
 *
 * @module
 */

import { ConfigError } from "../errors.ts";
import { type DenoPermissions, parseDenoPermissions } from "./deno_permissions.ts";
import { parseSandboxPolicy, type SandboxPolicy } from "./policy.ts";

/** What {@linkcode sandboxFields} returns. */
export interface SandboxFields {
  sandbox?: SandboxPolicy;
  denoPermissions?: DenoPermissions;
  /** Names of the caller's variables passed to the server (`env_passthrough`). */
  envPassthrough: string[];
}

/**
 * Reads `sandbox`, `deno_permissions` and `env_passthrough` of a `_meta.json`.
 *
 * @example
 * ```ts
 * sandboxFields({ env_passthrough: ["API_KEY"], sandbox: true }, { file: "/p/_meta.json" });
 * // { sandbox: { network: false, read: [], write: [] }, envPassthrough: ["API_KEY"] }
 * ```
 */
export function sandboxFields(
  meta: Record<string, unknown>,
  options: { file: string },
): SandboxFields {
  const result: SandboxFields = {
    envPassthrough: parseEnvPassthrough(meta.env_passthrough, options),
  };
  const sandbox = parseSandboxPolicy(meta.sandbox, options);
  if (sandbox) result.sandbox = sandbox;
  const deno = parseDenoPermissions(meta.deno_permissions, options);
  if (deno) result.denoPermissions = deno;
  return result;
}

/** The `env_passthrough` field: a list of variable names. */
export function parseEnvPassthrough(value: unknown, options: { file: string }): string[] {
  if (value === undefined || value === null) return [];
  const names: unknown[] = Array.isArray(value) ? value : [value];
  for (const name of names) {
    if (
      !Array.isArray(value) || typeof name !== "string" || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)
    ) {
      throw new ConfigError(
        `Invalid profile ${options.file}: "env_passthrough" must list variable names, got ${
          JSON.stringify(name)
        }`,
        { path: options.file, hint: 'e.g. "env_passthrough": ["GITHUB_TOKEN"]' },
      );
    }
  }
  return [...new Set(names as string[])];
}
