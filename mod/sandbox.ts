/**
 * The sandbox as data: a policy ({@linkcode SandboxPolicy}: network, read
 * and write paths) as `open()` takes it (`OpenOptions.sandbox`, merged with
 * a profile's `sandbox`), read from a profile's field
 * ({@linkcode parseSandboxPolicy}); the plan jn made of it
 * ({@linkcode SandboxPlan}, on `conn.sandbox`: what the server sees, and
 * what jn left out); a Deno server's permissions
 * ({@linkcode DenoPermissions}).
 *
 * @example A profile's `sandbox` field, read
 * ```ts
 * import { parseSandboxPolicy } from "@jn/jn/sandbox";
 *
 * const policy = parseSandboxPolicy({ write: ["./out"] }, { file: "_meta.json" });
 * console.log(policy); // { network: false, read: [], write: ["./out"] }
 * ```
 *
 * @module
 */

export { parseSandboxPolicy, type SandboxPolicy } from "../lib/sandbox/policy.ts";
export type { SandboxLink, SandboxMask, SandboxPlan } from "../lib/sandbox/plan.ts";
export type { DenoPermissions } from "../lib/sandbox/deno_permissions.ts";
