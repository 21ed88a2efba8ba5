/**
 * What the sandbox needs to know about this machine: where a program is on
 * PATH, what is at a path, and whether bubblewrap can create its namespaces
 * here. For the paths the user gave, a refused Deno permission is re-thrown
 * (jn's own sandbox speaking: exit 6 naming the flag), never read as "not
 * there".
 *
 * @module
 */

import { delimiter, isAbsolute, join } from "node:path";
import { isPermissionRefusal, SandboxError } from "../errors.ts";

/** What is at a path: sockets, FIFOs and devices are `"other"` (never given implicitly). */
export type PathKind = "file" | "dir" | "other";

/** What is at `path` (symlinks followed), or `undefined` when nothing is there. */
export function statKind(path: string): PathKind | undefined {
  try {
    const info = Deno.statSync(path);
    return info.isDirectory ? "dir" : info.isFile ? "file" : "other";
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

/**
 * The first `maxBytes` bytes of a file as text, or `undefined` when it cannot
 * be read (jn looks at package manifests and script headers this way; a file
 * it may not read is simply not used).
 */
export function readHead(path: string, maxBytes = 64 * 1024): string | undefined {
  let file: Deno.FsFile | undefined;
  try {
    file = Deno.openSync(path, { read: true });
    const buffer = new Uint8Array(maxBytes);
    let length = 0;
    while (length < maxBytes) {
      const read = file.readSync(buffer.subarray(length));
      if (read === null) break;
      length += read;
    }
    return new TextDecoder().decode(buffer.subarray(0, length));
  } catch {
    return undefined;
  } finally {
    file?.close();
  }
}

/** The names in a directory, or `[]` when it cannot be listed. */
export function listDir(path: string): string[] {
  try {
    return [...Deno.readDirSync(path)].map((entry) => entry.name);
  } catch {
    return [];
  }
}

/**
 * The path of `command` on `path` (a PATH value), as found (symlinks not
 * resolved); `undefined` when it is not there or jn may not look. Only the
 * absolute directories of `path` count: a relative (or empty) entry would
 * name a file of whatever directory jn runs in, often a repository.
 */
export function findExecutable(command: string, path: string | undefined): string | undefined {
  const candidates = isAbsolute(command)
    ? [command]
    : command.includes("/")
    ? []
    : absoluteEntries(path).map((dir) => join(dir, command));
  for (const candidate of candidates) {
    try {
      const info = Deno.statSync(candidate);
      if (info.isFile && ((info.mode ?? 0o111) & 0o111) !== 0) return candidate;
    } catch {
      // Not there, or not ours to read: try the next directory.
    }
  }
  return undefined;
}

/** The absolute directories of a PATH value, in order. */
export function absoluteEntries(path: string | undefined): string[] {
  return (path ?? "").split(delimiter).filter((dir) => isAbsolute(dir));
}

/**
 * A program jn runs itself (bwrap, sandbox-exec) and the environment to run
 * it with: found in the absolute directories of jn's own PATH (the caller's
 * environment, never a profile's); by name, on those same directories, when
 * jn may not look there (a narrow `--allow-read`: Deno then resolves it,
 * and `--allow-run=NAME` holds it to the program Deno found at start).
 */
export function helperProgram(
  name: string,
  callerEnv: Record<string, string>,
): { command: string; env: Record<string, string> } {
  const path = absoluteEntries(callerEnv.PATH).join(delimiter);
  return { command: findExecutable(name, path) ?? name, env: path ? { PATH: path } : {} };
}

const probed = new Map<string, Promise<void>>();

/**
 * Fails with a SandboxError when bubblewrap is not installed or cannot set up
 * a sandbox on this machine (unprivileged user namespaces disabled, a seccomp
 * filter in a container, …). Runs `bwrap … true` once per process and
 * program, in an environment of the PATH `bwrap` gives alone (see
 * {@linkcode helperProgram}); only `--allow-run=bwrap` is needed.
 */
export function probeBwrap(
  label: string,
  bwrap: { command: string; env: Record<string, string> },
): Promise<void> {
  let probe = probed.get(bwrap.command);
  if (!probe) {
    probe = runProbe(label, bwrap);
    probed.set(bwrap.command, probe);
  }
  return probe;
}

/** A bwrap run that needs what every sandbox needs (all namespaces, /dev, /proc) and runs `true`. */
export const BWRAP_PROBE_ARGS: readonly string[] = [
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
];

const BWRAP_HINT = "install bubblewrap: sudo apt-get install bubblewrap (Debian, Ubuntu), " +
  "sudo dnf install bubblewrap (Fedora), sudo pacman -S bubblewrap (Arch)";

async function runProbe(
  label: string,
  bwrap: { command: string; env: Record<string, string> },
): Promise<void> {
  const command = new Deno.Command(bwrap.command, {
    env: bwrap.env,
    clearEnv: true,
    args: [...BWRAP_PROBE_ARGS],
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  });
  let output: Deno.CommandOutput;
  try {
    output = await command.output();
  } catch (error) {
    probed.delete(bwrap.command);
    if (!(error instanceof Deno.errors.NotFound)) throw error;
    throw new SandboxError(`Cannot sandbox "${label}": bubblewrap (bwrap) is not installed`, {
      hint: BWRAP_HINT,
    });
  }
  if (output.success) return;
  const message = new TextDecoder().decode(output.stderr).trim().split("\n")[0] ||
    `bwrap exited with code ${output.code}`;
  throw new SandboxError(`Cannot sandbox "${label}": bubblewrap does not work here (${message})`, {
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
