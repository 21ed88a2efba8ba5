/**
 * Whether the bubblewrap tests can run on this machine, for `ignore:`. A test
 * file that needs bubblewrap asks {@linkcode requireBwrap} once, at load; when
 * bwrap is missing from PATH, or cannot create its namespaces here (user
 * namespaces off, a container's seccomp filter), the file's sandbox tests
 * are ignored (Deno lists each as "ignored") and ONE line on stderr, for the
 * whole run, says what was skipped and how to enable it. `.ci/run` installs
 * bubblewrap, so CI runs them.
 *
 * @module
 */

import { BWRAP_PROBE_ARGS } from "../../lib/sandbox/host.ts";

let probe: Promise<string | undefined> | undefined;

/** Why bubblewrap cannot run here, or `undefined` when it can. Probed once per process. */
export function bwrapUnavailable(): Promise<string | undefined> {
  probe ??= runProbe();
  return probe;
}

/** Set once the line is printed: the environment is shared by every test file of the run. */
const SAID = "JN_TESTS_BWRAP_SKIP_SAID";

/**
 * `true` when the bubblewrap tests of `what` must be ignored (saying so on
 * stderr, once per run), `false` when they can run.
 *
 * @example
 * ```ts ignore
 * const NO_BWRAP = await requireBwrap("tests/sandbox/bwrap_test.ts");
 * Deno.test({ name: "…", ignore: NO_BWRAP, fn: async () => {} });
 * ```
 */
export async function requireBwrap(what: string): Promise<boolean> {
  const reason = await bwrapUnavailable();
  if (reason === undefined) return false;
  if (Deno.env.get(SAID)) return true;
  Deno.env.set(SAID, what);
  // deno-lint-ignore no-console
  console.error(
    `SKIPPED the --sandbox tests (bubblewrap) of tests/sandbox/ (first: ${what}; each is listed ` +
      `as "ignored"): ${reason}; to run them: ` +
      "sudo apt-get install bubblewrap (Debian, Ubuntu), sudo dnf install bubblewrap (Fedora), " +
      "sudo pacman -S bubblewrap (Arch), with unprivileged user namespaces on (docs/sandbox.md)",
  );
  return true;
}

async function runProbe(): Promise<string | undefined> {
  if (Deno.build.os !== "linux") return `bubblewrap is Linux-only (this is ${Deno.build.os})`;
  const command = new Deno.Command("bwrap", {
    args: [...BWRAP_PROBE_ARGS],
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  });
  try {
    const output = await command.output();
    if (output.success) return undefined;
    const message = new TextDecoder().decode(output.stderr).trim().split("\n")[0];
    return `bwrap cannot create a sandbox here (${message || `exit ${output.code}`})`;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return "bwrap is not on PATH";
    throw error;
  }
}
