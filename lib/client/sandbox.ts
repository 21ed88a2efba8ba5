/**
 * The sandbox policy of a connection: the launch it starts, with the
 * profile's sandbox merged with the caller's (`OpenOptions.sandbox`, the
 * `--sandbox*` flags), the profile's Deno permissions and the variables
 * passed through by name applied (lib/sandbox/prepare.ts), and the profile's
 * own directory kept read-only inside the sandbox; the notices of
 * what jn left out of the sandbox (`events.onNotice`); and the hint that
 * says why a sandboxed server that failed to start may have failed, down to
 * the hidden path its own output names and the `--sandbox-read` that shows
 * it (never a broad or credential directory: failure_hint.ts). Notices name
 * the server's arguments and paths: `${VAR}` secrets among them are redacted.
 *
 * @module
 */

import { ConnectionError, LaunchError, SandboxError } from "../errors.ts";
import { describeArgv, type LaunchSpec, type StdioLaunch } from "../launch/spec.ts";
import { redact } from "../output/redact.ts";
import { visible } from "../output/visible.ts";
import { untrustedDirs } from "../sandbox/code_loading_env.ts";
import { helperProgram, probeBwrap, statKind } from "../sandbox/host.ts";
import { mergePolicies, type SandboxPolicy } from "../sandbox/policy.ts";
import { denoWrites } from "../sandbox/deno_permissions.ts";
import { prepareLaunchWithPlan } from "../sandbox/prepare.ts";
import type { ServerWrites } from "../sandbox/sampling_view.ts";
import type { OpenOptions, SandboxInfo } from "./options.ts";
import type { Target } from "./resolve.ts";

/** A launch ready to start, and the sandbox it runs in (if any). */
export interface SandboxedLaunch {
  launch: LaunchSpec;
  sandbox?: SandboxInfo;
  /**
   * Where the server, confined (a sandbox, or Deno's permissions), may
   * write: what a profile's sampling command must not see. None for a
   * server that is not confined (it could plant code anywhere anyway).
   */
  writes?: ServerWrites;
}

/**
 * Applies the target's and the caller's sandbox, Deno permissions and
 * pass-through to `launch`; a stdio server starts in `options.cwd` unless
 * its profile names a `cwd`.
 */
export async function sandboxedLaunch(
  target: Target,
  options: OpenOptions,
  launch: LaunchSpec,
): Promise<SandboxedLaunch> {
  const policy = mergePolicies(target.sandbox, options.sandbox);
  if (policy) failures ??= await import("./sandbox_failure.ts");
  const prepared = await prepareLaunchWithPlan(launch, {
    cwd: options.cwd,
    callerEnv: options.env,
    sandbox: policy,
    explicitPaths: options.sandbox && [...options.sandbox.read, ...options.sandbox.write],
    // Its files are what trust covered, and its sampling command runs from there.
    readOnly: profileDir(target),
    envPassthrough: options.envPassthrough ?? [],
    // A project profile's PATH may not lead into the directory it came with.
    local: target.profile?.layer === "project" ? untrustedDirs(options.cwd) : undefined,
    denoPermissions: target.denoPermissions,
  });
  for (const notice of [...prepared.notices ?? [], ...prepared.plan?.notices ?? []]) {
    await options.events?.onNotice?.(visible(redact(notice, target.secrets)));
  }
  // A server without a working directory of its own starts in the caller's
  // (`options.cwd`, which a program need not share with its process); a
  // sandboxed one already does (the plan's chdir).
  const started = prepared.launch;
  const ready = !policy && started.transport === "stdio" && started.cwd === undefined
    ? { ...started, cwd: options.cwd }
    : started;
  if (ready !== started && statKind(options.cwd) !== "dir") {
    throw new LaunchError(
      `Cannot start server "${launch.label}": its working directory "${options.cwd}" is not a directory`,
      { hint: "run it from a directory that exists (the cwd option of open())" },
    );
  }
  return {
    launch: ready,
    sandbox: policy && { policy, plan: prepared.plan, home: options.env.HOME },
    writes: prepared.plan ?? (ready.transport === "stdio" ? denoServerWrites(ready) : undefined),
  };
}

/** Where an unsandboxed Deno server may write by its flags, by real path (see `denoWrites`). */
function denoServerWrites(launch: StdioLaunch): ServerWrites | undefined {
  const writes = denoWrites(launch);
  if (writes === undefined) return undefined;
  const cwd = launch.cwd ?? "/";
  return {
    write: writes.map((path) => {
      const absolute = path.startsWith("/") ? path : `${cwd}/${path}`;
      try {
        return Deno.realPathSync(absolute);
      } catch {
        return absolute; // not there (yet): hidden as named
      }
    }),
  };
}

/**
 * The `--debug` line of a sandboxed launch's argv: each word redacted before
 * it is quoted, so that quoting (`it'\\''s`) cannot split a secret.
 */
export function sandboxedArgvLine(launch: StdioLaunch, secrets: readonly string[]): string {
  return describeArgv({
    ...launch,
    command: redact(launch.command, secrets),
    args: launch.args.map((arg) => redact(arg, secrets)),
  });
}

/**
 * What explains a sandboxed server's failure (sandbox_failure.ts, with the
 * sandbox's plan and host probes): loaded by {@linkcode sandboxedLaunch}
 * when a launch has a sandbox, before it starts, so that the synchronous
 * {@linkcode explainSandboxFailure} has it for every sandboxed connection.
 */
let failures: typeof import("./sandbox_failure.ts") | undefined;

/** Adds to a start/connection failure of a sandboxed server what the sandbox withheld. */
export function explainSandboxFailure(error: unknown, sandbox: SandboxInfo | undefined): void {
  if (!sandbox || !(error instanceof LaunchError || error instanceof ConnectionError)) return;
  const tail = error.stderrTail ?? "";
  const hidden = failures?.hiddenPathHint(tail, sandbox);
  if (hidden) {
    error.hint = hidden;
    return;
  }
  const launcher = sandbox.policy.network === false ? failures?.launcherHint(tail) : undefined;
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

/**
 * The argv before `/bin/sh -c COMMAND` that runs a profile's sampling
 * command beside a confined server that `writes` somewhere of the user's:
 * bubblewrap with every such path hidden (lib/sandbox/sampling_view.ts),
 * started from `dir` in the caller's `env`; none when the server writes
 * nothing of the user's (only its private /tmp), or is not confined. Throws, refusing the request with
 * the reason and what to do, where jn cannot hide those paths (not Linux) or
 * where the command's own directory is one of them. `onHidden` hears what is hidden.
 */
export async function confinedSampling(
  writes: ServerWrites | undefined,
  options: { dir: string; env: Record<string, string>; onHidden?: (paths: string[]) => void },
): Promise<string[] | undefined> {
  if (!writes) return undefined;
  const { samplingView, samplingBwrapArgs, hiddenFrom } = await import(
    "../sandbox/sampling_view.ts"
  );
  const view = samplingView(writes, statKind);
  if (!view) return undefined;
  const what = `the profile's sampling_command runs beside a sandboxed server that may write ` +
    view.hidden.join(", ");
  const instead = "give --sampling-command yourself, or let the server write elsewhere " +
    '(e.g. "write": ["./out"])';
  if (Deno.build.os !== "linux") {
    throw new Error(`${what}, and jn can hide those from it on Linux only: ${instead}`);
  }
  if (hiddenFrom(view, options.dir)) {
    throw new Error(`${what}, its own directory included: ${instead}`);
  }
  const bwrap = helperProgram("bwrap", options.env);
  try {
    await probeBwrap("the sampling command", bwrap);
  } catch (error) {
    const why = error instanceof SandboxError ? `${error.message}${hintOf(error)}` : String(error);
    throw new Error(`${what}, and jn hides those from it with bubblewrap: ${why}`);
  }
  options.onHidden?.(view.hidden);
  return [bwrap.command, ...samplingBwrapArgs(view, options.dir)];
}

function hintOf(error: SandboxError): string {
  return error.hint ? ` (${error.hint})` : "";
}

/** The profile's own directory (its real path), when it has one. */
function profileDir(target: Target): string[] | undefined {
  const profile = target.profile;
  return profile && profile.layer !== "bundled" ? [profile.realDir] : undefined;
}
