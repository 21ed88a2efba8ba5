/**
 * The CLI side of the sandbox: the launch a command starts, with the
 * profile's sandbox and Deno permissions and the `--sandbox*` and
 * `--env-passthrough` flags applied (lib/sandbox/prepare.ts); the notices of
 * what jn left out of the sandbox (stderr, unless `--quiet`); and the hint
 * that says why a sandboxed server that failed to start may have failed,
 * down to the hidden path it needed and the `--sandbox-read` that shows it.
 *
 * @module
 */

import { ConnectionError, LaunchError } from "../errors.ts";
import type { LaunchSpec } from "../launch/spec.ts";
import { findHiddenPath, launcherHint } from "../sandbox/failure_hint.ts";
import { statKind } from "../sandbox/host.ts";
import { type SandboxPlan, visibleIn } from "../sandbox/plan.ts";
import { mergePolicies, type SandboxPolicy } from "../sandbox/policy.ts";
import { prepareLaunchWithPlan } from "../sandbox/prepare.ts";
import type { Target } from "./resolve.ts";
import { style } from "../output/style.ts";
import { printErr, useColor } from "../cli/io.ts";
import type { Ctx } from "../cli/main.ts";
import type { CallFlags } from "../cli/options.ts";

/** The sandbox a launch runs in: the policy asked for, and what the server sees. */
export interface SandboxInfo {
  policy: SandboxPolicy;
  /** Absent for a launch jn does not confine itself (none today: remote servers are refused). */
  plan?: SandboxPlan;
  /** The caller's HOME (for the hint's choice of directory). */
  home?: string;
}

/** A launch ready to start, and the sandbox it runs in (if any). */
export interface SandboxedLaunch {
  launch: LaunchSpec;
  sandbox?: SandboxInfo;
}

/** Applies the target's and the flags' sandbox, Deno permissions and pass-through to `launch`. */
export async function sandboxedLaunch(
  ctx: Ctx,
  target: Target,
  flags: CallFlags,
  launch: LaunchSpec,
): Promise<SandboxedLaunch> {
  const policy = targetSandbox(target, flags);
  const prepared = await prepareLaunchWithPlan(launch, {
    cwd: ctx.io.cwd,
    callerEnv: ctx.io.env,
    sandbox: policy,
    envPassthrough: flags.envPassthrough,
    denoPermissions: target.denoPermissions,
  });
  if (!ctx.quiet && prepared.plan && prepared.plan.notices.length > 0) {
    const s = style(useColor(ctx.io));
    await printErr(
      ctx.io,
      prepared.plan.notices.map((text) => `${s.yellow("jn:")} ${text}`).join("\n"),
    );
  }
  return {
    launch: prepared.launch,
    sandbox: policy && { policy, plan: prepared.plan, home: ctx.io.env.HOME },
  };
}

/** Adds to a start/connection failure of a sandboxed server what the sandbox withheld. */
export function explainSandboxFailure(error: unknown, sandbox: SandboxInfo | undefined): void {
  if (!sandbox || !(error instanceof LaunchError || error instanceof ConnectionError)) return;
  const tail = error.stderrTail ?? "";
  const plan = sandbox.plan;
  const hidden = plan &&
    findHiddenPath(tail, {
      visible: (path) => visibleIn(plan, path),
      stat: (path) => {
        try {
          return statKind(path);
        } catch {
          return undefined;
        }
      },
      home: sandbox.home,
    });
  if (hidden) {
    error.hint = `the sandbox hides ${JSON.stringify(hidden.path)}, which the server needs ` +
      `(${JSON.stringify(hidden.line)}): show it with --sandbox-read ${hidden.grant}`;
    return;
  }
  const launcher = sandbox.policy.network === false ? launcherHint(tail) : undefined;
  const other = error.hint && !error.hint.startsWith("run the server command by hand")
    ? `; otherwise: ${error.hint}`
    : "";
  error.hint = (launcher ?? sandboxHint(sandbox.policy)) + other;
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
