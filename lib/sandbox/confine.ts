/**
 * Confines a stdio launch with the sandbox tool of this OS: bubblewrap on
 * Linux, sandbox-exec on macOS. Never runs a server unconfined when a
 * sandbox was asked for: a missing or broken tool, or an OS without one, is
 * a SandboxError (exit 6) with a hint.
 *
 * @module
 */

import { SandboxError } from "../errors.ts";
import type { StdioLaunch } from "../launch/spec.ts";
import { bwrapLaunch } from "./bwrap.ts";
import { findExecutable, listDir, probeBwrap, readHead, realPath, statKind } from "./host.ts";
import type { HostView } from "./host_view.ts";
import { adaptLauncher } from "./launcher_state.ts";
import { planSandbox, type SandboxPlan } from "./plan.ts";
import type { SandboxPolicy } from "./policy.ts";
import { withRealScript } from "./runtime_mounts.ts";
import { seatbeltLaunch } from "./seatbelt.ts";

/** Options of {@linkcode confineLaunch}. */
export interface ConfineOptions {
  /** The caller's working directory. */
  cwd: string;
  /** The caller's environment (macOS: its PATH finds sandbox-exec; jn's own caches). */
  callerEnv: Record<string, string>;
  /** The environment the server will get (its PATH finds the launcher; HOME, caches). */
  childEnv: Record<string, string>;
  /** The OS; `Deno.build.os` by default. */
  os?: string;
  /** The declared paths the user typed on the command line (absolute; see `PlanOptions`). */
  explicit?: readonly string[];
}

/** A confined launch and the plan it was built from. */
export interface Confined {
  launch: StdioLaunch;
  plan: SandboxPlan;
}

/** The launch that runs `launch` inside the sandbox `policy` describes (paths absolute). */
export async function confineLaunch(
  launch: StdioLaunch,
  policy: SandboxPolicy,
  options: ConfineOptions,
): Promise<Confined> {
  const os = options.os ?? Deno.build.os;
  if (os !== "linux" && os !== "darwin") {
    throw new SandboxError(`Cannot sandbox "${launch.label}": jn has no sandbox on ${os}`, {
      hint: "run jn in WSL 2 with bubblewrap installed, or drop --sandbox if you trust the server",
    });
  }
  let sandboxExec: string | undefined;
  if (os === "linux") {
    await probeBwrap(launch.label);
  } else {
    sandboxExec = findExecutable("sandbox-exec", `/usr/bin:${options.callerEnv.PATH ?? ""}`);
    if (!sandboxExec) {
      throw new SandboxError(`Cannot sandbox "${launch.label}": sandbox-exec is not installed`, {
        hint: "sandbox-exec ships with macOS in /usr/bin",
      });
    }
  }
  const host: HostView = {
    os,
    cwd: options.cwd,
    env: options.childEnv,
    stat: statKind,
    realPath,
    readHead,
    list: listDir,
  };
  const network = policy.network !== false;
  const adapted = adaptLauncher(withRealScript(launch, launch.cwd ?? options.cwd, host), {
    network,
    callerEnv: options.callerEnv,
    host,
  });
  const confined = adapted.launch;
  // jn's own caches exist before planning, so the plan judges them by their real paths.
  const mounts = { ...adapted.mounts, write: [] as string[], scratch: [...adapted.mounts.scratch] };
  for (const dir of adapted.mounts.write) {
    try {
      Deno.mkdirSync(dir, { recursive: true });
      mounts.write.push(dir);
    } catch {
      // jn may not create it: the launcher gets an empty cache that lives as long as it does.
      mounts.scratch.push(dir);
    }
  }
  const plan = planSandbox(
    confined,
    policy,
    {
      ...host,
      env: { ...options.childEnv, ...confined.env },
      commandPath: findExecutable(confined.command, confined.env.PATH ?? options.childEnv.PATH),
    },
    mounts,
    { explicit: options.explicit },
  );
  if (os === "linux") return { launch: bwrapLaunch(confined, plan, { bwrap: "bwrap" }), plan };
  const tmpDir = Deno.realPathSync(await Deno.makeTempDir({ prefix: "jn-sandbox-" }));
  return { launch: seatbeltLaunch(confined, plan, { sandboxExec: sandboxExec!, tmpDir }), plan };
}
