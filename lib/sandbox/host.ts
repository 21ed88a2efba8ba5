/**
 * What the sandbox needs to know about this machine: where a program is on
 * PATH, what is at a path, and whether bubblewrap can create its namespaces
 * here. A refused Deno permission is re-thrown (it is jn's own sandbox
 * speaking: exit 6 naming the flag), never read as "not there".
 *
 * @module
 */

import { delimiter, isAbsolute, join } from "node:path";
import { SandboxError } from "../errors.ts";
import { isPermissionRefusal } from "./permissions.ts";

/** `"file"`, `"dir"` or `undefined` when nothing is at `path`. */
export function statKind(path: string): "file" | "dir" | undefined {
  try {
    const info = Deno.statSync(path);
    return info.isDirectory ? "dir" : "file";
  } catch (error) {
    if (isPermissionRefusal(error)) throw error;
    return undefined;
  }
}

/** `path` with symlinks resolved, or `undefined` when it does not exist. */
export function realPath(path: string): string | undefined {
  try {
    return Deno.realPathSync(path);
  } catch (error) {
    if (isPermissionRefusal(error)) throw error;
    return undefined;
  }
}

/** The absolute path of `command` as the OS would find it on `path` (a PATH value). */
export function findExecutable(command: string, path: string | undefined): string | undefined {
  if (isAbsolute(command)) return statKind(command) === "file" ? command : undefined;
  if (command.includes("/")) return undefined;
  for (const dir of (path ?? "").split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, command);
    try {
      const info = Deno.statSync(candidate);
      if (info.isFile && ((info.mode ?? 0o111) & 0o111) !== 0) return candidate;
    } catch (error) {
      if (isPermissionRefusal(error)) throw error;
    }
  }
  return undefined;
}

let probed: Promise<void> | undefined;

/**
 * Fails with a SandboxError when bubblewrap cannot set up a sandbox on this
 * machine (unprivileged user namespaces disabled, a seccomp filter in a
 * container, …). Runs `bwrap … true` once per process.
 */
export function probeBwrap(bwrap: string): Promise<void> {
  probed ??= runProbe(bwrap);
  return probed;
}

async function runProbe(bwrap: string): Promise<void> {
  const output = await new Deno.Command(bwrap, {
    args: [
      "--die-with-parent",
      "--unshare-all",
      "--cap-drop",
      "ALL",
      "--ro-bind",
      "/",
      "/",
      "--dev",
      "/dev",
      "--proc",
      "/proc",
      "--",
      "true",
    ],
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).output();
  if (output.success) return;
  const message = new TextDecoder().decode(output.stderr).trim().split("\n")[0] ||
    `bwrap exited with code ${output.code}`;
  throw new SandboxError(`Cannot sandbox the server: bubblewrap does not work here (${message})`, {
    hint: namespaceHint(message),
  });
}

function namespaceHint(message: string): string {
  if (
    /uid map|user namespace|No permissions|Operation not permitted|Permission denied/i.test(message)
  ) {
    return "unprivileged user namespaces are off: sysctl kernel.unprivileged_userns_clone=1 " +
      "(Debian) or kernel.apparmor_restrict_unprivileged_userns=0 (Ubuntu 24.04); in a " +
      "container, allow them (e.g. docker --security-opt seccomp=unconfined)";
  }
  return "see docs/sandbox.md; run without --sandbox only if you trust the server";
}
