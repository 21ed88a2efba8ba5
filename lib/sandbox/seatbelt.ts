/**
 * A stdio launch confined by macOS's sandbox (Seatbelt): the same server,
 * started as `sandbox-exec -p PROFILE COMMAND ARGS…`, with a generated
 * profile equivalent to the bubblewrap mounts of `bwrap.ts`:
 * - everything is denied unless allowed (`(deny default)`);
 * - reading: the system is readable, the plan's hidden directories are not
 *   (`/Users`, `/Volumes`, temporary folders, the home directory), declared
 *   and launcher paths are readable again; metadata (stat) stays readable
 *   everywhere, since runtimes walk the parents of their files;
 * - writing: only the plan's `write` paths, a private temporary directory
 *   (passed as `TMPDIR`, since macOS has no mount namespaces) and the
 *   harmless devices (`/dev/null`, the TTYs);
 * - network: none unless the plan allows it;
 * - the plan's `mask` (the user's sessions folders, session_masks.ts) is
 *   denied last, under any grant: reading, writing, and connecting to a
 *   Unix socket in it (which `(allow network*)` would otherwise allow);
 * - processes: fork/exec allowed, signals only within the sandbox; children
 *   inherit the sandbox, so the whole tree is confined;
 * - the server's variables: sandbox-exec has no `--setenv`, so it starts in
 *   the server's environment except the dynamic loader's variables
 *   (code_loading_env.ts: `DYLD_*`, `LD_*`, …), which would act on
 *   sandbox-exec itself before confinement; those reach the server through
 *   `/usr/bin/env NAME=VALUE` run inside the sandbox (in the argv: they
 *   name libraries, not secrets).
 *
 * NOT TESTED ON macOS: jn's tests run on Linux; the generated text is
 * unit-tested, its behaviour is not. Seatbelt gives the last matching rule
 * precedence, which the order of the rules below relies on.
 *
 * Pure: builds text and an argv, runs nothing.
 *
 * @module
 */

import { SandboxError } from "../errors.ts";
import type { StdioLaunch } from "../launch/spec.ts";
import { codeLoadingVariable } from "./code_loading_env.ts";
import type { SandboxPlan } from "./plan.ts";

/** Options of {@linkcode seatbeltLaunch}. */
export interface SeatbeltOptions {
  /** The sandbox-exec executable. */
  sandboxExec: string;
  /** A fresh, empty directory: the server's private `TMPDIR`. */
  tmpDir: string;
  /** The server's whole environment; the launch's `env` when absent. */
  serverEnv?: Record<string, string>;
}

/** The launch that runs `launch` under sandbox-exec according to `plan`. */
export function seatbeltLaunch(
  launch: StdioLaunch,
  plan: SandboxPlan,
  options: SeatbeltOptions,
): StdioLaunch {
  const env: Record<string, string> = {};
  const loaded: string[] = [];
  for (const [name, value] of Object.entries(options.serverEnv ?? launch.env)) {
    if (codeLoadingVariable(name, value)?.loader) loaded.push(`${name}=${value}`);
    else env[name] = value;
  }
  if (loaded.length > 0 && launch.command.includes("=")) {
    throw new SandboxError(
      `Cannot sandbox "${launch.label}": its command "${launch.command}" has an "=" in its path`,
      { hint: "run the server from a path without '='" },
    );
  }
  const { envPassthrough: _passed, ...rest } = launch;
  return {
    ...rest,
    command: options.sandboxExec,
    args: [
      "-p",
      seatbeltProfile(plan, options.tmpDir),
      ...(loaded.length > 0 ? ["/usr/bin/env", ...loaded] : []),
      launch.command,
      ...launch.args,
    ],
    env: { ...env, TMPDIR: options.tmpDir },
    cwd: plan.chdir,
  };
}

/** The Seatbelt profile (SBPL) of a plan. */
export function seatbeltProfile(plan: SandboxPlan, tmpDir: string): string {
  const masked = (plan.mask ?? []).map((hidden) => hidden.path);
  const lines = [
    "(version 1)",
    "(deny default)",
    ";; processes: the server and its children, signals only among themselves",
    "(allow process-exec)",
    "(allow process-fork)",
    "(allow signal (target same-sandbox))",
    "(allow process-info* (target same-sandbox))",
    "(allow sysctl-read)",
    "(allow mach-lookup)",
    "(allow ipc-posix-shm)",
    "(allow ipc-posix-sem)",
    "(allow pseudo-tty)",
    ";; reading: the system, not the user's places, then what the server was given",
    "(allow file-read*)",
    ...rule("deny", "file-read*", plan.hide),
    "(allow file-read-metadata)",
    ...rule("allow", "file-read*", [...plan.read, ...plan.write, tmpDir]),
    ";; writing: declared paths and a private temporary directory only",
    ...rule("allow", "file-write*", [...plan.write, tmpDir]),
    ...rule("deny", "file-write*", plan.protect ?? []),
    '(allow file-write-data (literal "/dev/null") (literal "/dev/zero") (literal "/dev/tty")' +
    ' (regex #"^/dev/ttys[0-9]+$"))',
    '(allow file-ioctl (literal "/dev/null") (literal "/dev/tty") (regex #"^/dev/ttys[0-9]+$"))',
    ";; network",
    ...(plan.network ? ["(allow network*)", "(allow system-socket)"] : [";; no network"]),
    ";; hidden under any grant: the sessions folders (last: the last matching rule wins)",
    ...rule("deny", "file-read* file-write*", masked),
    ...rule("deny", "network-outbound", masked, "remote unix-socket"),
  ];
  return lines.join("\n") + "\n";
}

/**
 * One rule over a list of directories (`subpath` matches the directory and
 * below), each filter wrapped in `(WRAP …)` when given (`remote unix-socket`).
 */
function rule(
  action: "allow" | "deny",
  operation: string,
  paths: string[],
  wrap?: string,
): string[] {
  if (paths.length === 0) return [];
  const filters = [...new Set(paths)].map((path) =>
    wrap ? `  (${wrap} (subpath ${sbplString(path)}))` : `  (subpath ${sbplString(path)})`
  );
  return [`(${action} ${operation}`, ...filters.slice(0, -1), `${filters.at(-1)})`];
}

/** A string literal of SBPL (Scheme): backslash and double quote escaped. */
export function sbplString(text: string): string {
  return `"${text.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`;
}
