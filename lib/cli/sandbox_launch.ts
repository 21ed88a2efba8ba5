/**
 * The CLI side of the sandbox: the launch a command starts, with the
 * profile's sandbox and Deno permissions and the `--sandbox*` and
 * `--env-passthrough` flags applied (lib/sandbox/prepare.ts), and the hint
 * that says why a sandboxed server that failed to start may have failed.
 *
 * @module
 */

import { ConnectionError, LaunchError } from "../errors.ts";
import type { LaunchSpec } from "../launch/spec.ts";
import { mergePolicies, type SandboxPolicy } from "../sandbox/policy.ts";
import { prepareLaunch } from "../sandbox/prepare.ts";
import type { Target } from "../target.ts";
import type { Ctx } from "./main.ts";
import type { CallFlags } from "./options.ts";

/** A launch ready to start, and the sandbox it runs in (if any). */
export interface SandboxedLaunch {
  launch: LaunchSpec;
  sandbox?: SandboxPolicy;
}

/** Applies the target's and the flags' sandbox, Deno permissions and pass-through to `launch`. */
export async function sandboxedLaunch(
  ctx: Ctx,
  target: Target,
  flags: CallFlags,
  launch: LaunchSpec,
): Promise<SandboxedLaunch> {
  const sandbox = targetSandbox(target, flags);
  const prepared = await prepareLaunch(launch, {
    cwd: ctx.io.cwd,
    callerEnv: ctx.io.env,
    sandbox,
    envPassthrough: flags.envPassthrough,
    denoPermissions: target.denoPermissions,
  });
  return { launch: prepared, sandbox };
}

/** Adds to a start/connection failure of a sandboxed server what the sandbox withheld. */
export function explainSandboxFailure(error: unknown, sandbox: SandboxPolicy | undefined): void {
  if (!sandbox || !(error instanceof LaunchError || error instanceof ConnectionError)) return;
  const other = error.hint && !error.hint.startsWith("run the server command by hand")
    ? `; otherwise: ${error.hint}`
    : "";
  error.hint = sandboxHint(sandbox) + other;
}

/**
 * One line on what a sandbox withholds and how to grant it, e.g.
 * `the server runs sandboxed (no network; writable: /tmp only; your files hidden): …`.
 */
export function sandboxHint(sandbox: SandboxPolicy): string {
  const network = sandbox.network === false
    ? "no network"
    : sandbox.network === true
    ? "network"
    : `network to ${sandbox.network.join(", ")} only`;
  const writes = sandbox.write.length > 0 ? `${sandbox.write.join(", ")}, /tmp` : "/tmp only";
  return `the server runs sandboxed (${network}; writable: ${writes}; your files hidden): ` +
    "grant more with --sandbox-read, --sandbox-write, --sandbox-net (see docs/sandbox.md)";
}

/** The sandbox a target runs in with these flags, if any. */
export function targetSandbox(target: Target, flags: CallFlags): SandboxPolicy | undefined {
  return mergePolicies(target.sandbox, flags.sandbox);
}
