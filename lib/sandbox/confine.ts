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
import { findExecutable, probeBwrap, realPath, statKind } from "./host.ts";
import { planSandbox } from "./plan.ts";
import type { SandboxPolicy } from "./policy.ts";
import { seatbeltLaunch } from "./seatbelt.ts";

/** Options of {@linkcode confineLaunch}. */
export interface ConfineOptions {
  /** The caller's working directory. */
  cwd: string;
  /** The caller's environment (macOS: its PATH finds sandbox-exec). */
  callerEnv: Record<string, string>;
  /** The environment the server will get (its PATH finds the launcher; HOME, caches). */
  childEnv: Record<string, string>;
  /** The OS; `Deno.build.os` by default. */
  os?: string;
}

/** The launch that runs `launch` inside the sandbox `policy` describes (paths absolute). */
export async function confineLaunch(
  launch: StdioLaunch,
  policy: SandboxPolicy,
  options: ConfineOptions,
): Promise<StdioLaunch> {
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
  const real = os === "darwin" ? (path: string) => realPath(path) ?? path : (path: string) => path;
  const plan = planSandbox(launch, {
    network: policy.network !== false,
    read: policy.read.map(real),
    write: policy.write.map(real),
  }, {
    os,
    cwd: options.cwd,
    env: options.childEnv,
    commandPath: findExecutable(launch.command, options.childEnv.PATH),
    stat: statKind,
    realPath: (path) => {
      try {
        return realPath(path);
      } catch {
        return undefined; // only asked for /etc/resolv.conf: no answer, no extra mount
      }
    },
  });
  for (const dir of plan.create) {
    try {
      Deno.mkdirSync(dir, { recursive: true });
    } catch {
      // jn may not create it: the launcher gets an empty cache that lives as long as it does.
      plan.write = plan.write.filter((path) => path !== dir);
      plan.scratch.push(dir);
    }
  }
  if (os === "linux") return bwrapLaunch(launch, plan, { bwrap: "bwrap" });
  const tmpDir = Deno.realPathSync(await Deno.makeTempDir({ prefix: "jn-sandbox-" }));
  return seatbeltLaunch(launch, plan, { sandboxExec: sandboxExec!, tmpDir });
}
