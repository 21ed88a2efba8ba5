/**
 * Where a sandboxed server starts. Its working directory (a profile's `cwd`,
 * else the caller's; by its real path) when the sandbox shows it; when it is
 * hidden, jn never changes it silently:
 * - a profile's `cwd` that does not exist, that is a symlink to a broad or
 *   credential directory, or that is broad itself is a SandboxError naming
 *   the flag that would show it;
 * - an argument that names a path in it (`.`, `./data`, a relative script)
 *   is a SandboxError naming `--sandbox-read .`;
 * - otherwise the server starts in `/`, with a notice.
 *
 * Pure: the host is seen through a {@linkcode HostView}.
 *
 * @module
 */

import { isAbsolute, resolve } from "node:path";
import { SandboxError } from "../errors.ts";
import type { StdioLaunch } from "../launch/spec.ts";
import { type HostView, peek } from "./host_view.ts";

/** What the planner knows of the working directory. */
export interface WorkingDir {
  /** Its real path. */
  cwd: string;
  /** Whether the profile's `cwd` reaches it through a symlink. */
  linked: boolean;
  /** Whether jn may give it on its own (not broad, not a credential store reached by a link). */
  givable: boolean;
  /** Whether the sandbox shows it. */
  visible: boolean;
  /** The index of the script in the launch's args, if any. */
  scriptIndex?: number;
}

/** The directory the server starts in, and the notice when that is `/`; throws as above. */
export function startDir(
  launch: StdioLaunch,
  host: HostView,
  dir: WorkingDir,
): { chdir: string; notice?: string } {
  const { cwd } = dir;
  if (dir.visible) return { chdir: cwd };
  if (launch.cwd && peek(host, cwd) !== "dir") {
    throw new SandboxError(
      `Cannot sandbox "${launch.label}": its working directory "${cwd}" does not exist`,
      { hint: 'create it, or fix "cwd" in the profile' },
    );
  }
  if (launch.cwd && dir.linked && !dir.givable) {
    throw new SandboxError(
      `Cannot sandbox "${launch.label}": its working directory "${launch.cwd}" is a ` +
        `symlink to "${cwd}"`,
      {
        hint: "jn does not follow a symlink to a broad or credential directory: if you mean " +
          `it, --sandbox-read ${cwd} gives it; else fix "cwd" in the profile`,
      },
    );
  }
  if (launch.cwd) {
    throw new SandboxError(
      `Cannot sandbox "${launch.label}": its working directory "${cwd}" is hidden in the sandbox`,
      {
        hint: `jn does not give a directory this broad on its own: --sandbox-read ${cwd} ` +
          `gives it, or set a narrower "cwd" in the profile`,
      },
    );
  }
  const relative = launch.args.find((arg, index) =>
    index === dir.scriptIndex ? !isAbsolute(arg) : namesRelativePath(arg, cwd, host)
  );
  if (relative !== undefined) {
    throw new SandboxError(
      `Cannot sandbox "${launch.label}": its argument "${relative}" is a path in the working ` +
        `directory ${cwd}, which the sandbox hides`,
      {
        hint: "show the directory with --sandbox-read . (--sandbox-write . to let the " +
          "server write there), or pass a path you grant with --sandbox-read",
      },
    );
  }
  return {
    chdir: "/",
    notice: `the server starts in /: your working directory ${cwd} is hidden in the sandbox ` +
      "(--sandbox-read . shows it)",
  };
}

/**
 * Whether a server argument names a path relative to the working directory:
 * `.`, `..`, `./…`, `../…`, or a relative path with a `/` that exists there.
 * (A bare name such as `data` is not recognised: write `./data`.)
 */
function namesRelativePath(arg: string, cwd: string, host: HostView): boolean {
  if (arg === "." || arg === ".." || arg.startsWith("./") || arg.startsWith("../")) return true;
  if (arg.startsWith("-") || arg.startsWith("@") || isAbsolute(arg) || !arg.includes("/")) {
    return false;
  }
  return !arg.includes("://") && peek(host, resolve(cwd, arg)) !== undefined;
}
