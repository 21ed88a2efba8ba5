/**
 * Confines a stdio launch with the sandbox tool of this OS: bubblewrap on
 * Linux, sandbox-exec on macOS. Never runs a server unconfined when a
 * sandbox was asked for: a missing or broken tool, or an OS without one, is
 * a SandboxError (exit 6) with a hint.
 *
 * A profile's variables are the server's and grant nothing: jn finds its
 * sandbox tool, and the server's launcher, in the absolute directories of
 * its own PATH (the caller's environment: `OpenOptions.env`), starts the
 * tool in an environment of its own (bwrap.ts, seatbelt.ts), and works out
 * every path of the plan — what is broad, the home directory, the launchers'
 * caches (npm's, uv's, `DENO_DIR`) — from that same environment. The server
 * is started by the path jn found (so it is the program the plan was made
 * for); its own variables, a profile's `PATH` included, apply to it and to
 * what it starts, inside.
 *
 * @module
 */

import { SandboxError } from "../errors.ts";
import type { StdioLaunch } from "../launch/spec.ts";
import { ownUser } from "../profile/own_user.ts";
import { bwrapLaunch } from "./bwrap.ts";
import { childEnvironment } from "./env.ts";
import {
  findExecutable,
  helperProgram,
  listDir,
  probeBwrap,
  readHead,
  realPath,
  statKind,
} from "./host.ts";
import type { HostView } from "./host_view.ts";
import { adaptLauncher } from "./launcher_state.ts";
import { npmGlobalConfig } from "./npm_config.ts";
import { planSandbox, type SandboxPlan } from "./plan.ts";
import type { SandboxPolicy } from "./policy.ts";
import { withRealScript } from "./runtime_mounts.ts";
import { seatbeltLaunch } from "./seatbelt.ts";

/** Options of {@linkcode confineLaunch}. */
export interface ConfineOptions {
  /** The caller's working directory. */
  cwd: string;
  /**
   * The caller's environment, jn's own: its PATH finds bwrap, sandbox-exec
   * and the server's launcher; its HOME, caches and `DENO_DIR` shape the plan.
   */
  callerEnv: Record<string, string>;
  /** The OS; `Deno.build.os` by default. */
  os?: string;
  /** The declared paths the user typed on the command line (absolute; see `PlanOptions`). */
  explicit?: readonly string[];
  /** Directories that stay read-only under a writable path (see `PlanOptions`). */
  readOnly?: readonly string[];
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
  const tool = helperProgram(os === "linux" ? "bwrap" : "sandbox-exec", {
    // sandbox-exec ships in /usr/bin.
    PATH: os === "linux"
      ? options.callerEnv.PATH ?? ""
      : `/usr/bin:${options.callerEnv.PATH ?? ""}`,
  });
  if (os === "linux") {
    await probeBwrap(launch.label, tool);
  } else if (tool.command === "sandbox-exec") {
    throw new SandboxError(`Cannot sandbox "${launch.label}": sandbox-exec is not installed`, {
      hint: "sandbox-exec ships with macOS in /usr/bin",
    });
  }
  const host: HostView = {
    os,
    cwd: options.cwd,
    env: options.callerEnv,
    // Who runs jn, not what its environment says: every place its sessions may be is hidden.
    user: await ownUser(),
    stat: statKind,
    realPath,
    readHead,
    list: listDir,
  };
  const network = policy.network !== false;
  const serverEnv = (server: StdioLaunch) =>
    childEnvironment({
      callerEnv: options.callerEnv,
      declared: server.env,
      passthrough: server.envPassthrough,
    });
  const adapted = await adaptLauncher(withRealScript(launch, launch.cwd ?? options.cwd, host), {
    network,
    callerEnv: options.callerEnv,
    host,
    serverPath: serverEnv(launch).PATH,
    npmGlobalConfig: npmGlobalConfig(options.callerEnv),
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
  const commandPath = findExecutable(confined.command, options.callerEnv.PATH);
  const plan = planSandbox(confined, policy, { ...host, commandPath }, mounts, {
    explicit: options.explicit,
    readOnly: options.readOnly,
  });
  // A sessions folder the plan hides exists first (private, as a session makes it), so that
  // one made later, while the server runs, is hidden too (session_masks.ts).
  for (const dir of plan.create) {
    try {
      Deno.mkdirSync(dir, { recursive: true, mode: 0o700 });
    } catch (error) {
      // This user cannot make it: no session of theirs can be there either.
      if (error instanceof Deno.errors.PermissionDenied) {
        plan.mask = plan.mask?.filter((hidden) => hidden.path !== dir);
        continue;
      }
      // jn's own permissions keep it out, or anything else: never run with the folder shown.
      const why = error instanceof Deno.errors.NotCapable
        ? "jn may not create"
        : `jn cannot create (${(error as Error).message})`;
      throw new SandboxError(`Cannot sandbox "${launch.label}": ${why} ${dir}`, {
        hint: `the sandbox hides the sessions folder ${dir}: create it (mode 0700), ` +
          "or let jn write there",
      });
    }
  }
  // The program the plan was made for; not found, the server's PATH finds it inside.
  const server = commandPath ? { ...confined, command: commandPath } : confined;
  const env = serverEnv(confined);
  if (os === "linux") {
    return {
      launch: bwrapLaunch(server, plan, {
        bwrap: tool.command,
        helperEnv: tool.env,
        serverEnv: env,
      }),
      plan,
    };
  }
  const tmpDir = Deno.realPathSync(await Deno.makeTempDir({ prefix: "jn-sandbox-" }));
  return {
    launch: seatbeltLaunch(server, plan, { sandboxExec: tool.command, tmpDir, serverEnv: env }),
    plan,
  };
}
