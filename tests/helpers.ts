/**
 * Test helpers: run the jn CLI from source exactly as users and CI do
 * (`deno run` with the production permission set of deno.json on main.ts),
 * and build throwaway HOME/project trees.
 *
 * @module
 */

import { permissionFlags } from "../lib/sandbox/permissions.ts";

/** The repository root. */
export const ROOT = new URL("..", import.meta.url).pathname.replace(/\/$/, "");
/** main.ts of the repository. */
export const MAIN = `${ROOT}/main.ts`;
/** The fixture servers' directory. */
export const FIXTURES = `${ROOT}/tests/fixtures`;

/** What a jn run produced. */
export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Options of {@linkcode runJn}. */
export interface RunOptions {
  /** Text for stdin (stdin is closed otherwise). */
  stdin?: string;
  /** Environment variables added to a minimal base (PATH, HOME, DENO_DIR). */
  env?: Record<string, string>;
  cwd?: string;
  /** Kill jn after this many ms (a hung test fails instead of hanging). */
  timeoutMs?: number;
}

/** The base environment of a test run: no caller secrets, a private HOME unless given. */
export function baseEnv(): Record<string, string> {
  const env: Record<string, string> = {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HOME: Deno.env.get("HOME") ?? "/tmp",
    NO_COLOR: "1",
  };
  const denoDir = Deno.env.get("DENO_DIR");
  if (denoDir) env.DENO_DIR = denoDir;
  return env;
}

/** Runs `jn ARGS…` from source with the production permission set. */
export async function runJn(args: string[], options: RunOptions = {}): Promise<RunResult> {
  const command = new Deno.Command(Deno.execPath(), {
    args: ["run", ...permissionFlags(), MAIN, ...args],
    cwd: options.cwd ?? ROOT,
    env: { ...baseEnv(), ...options.env },
    clearEnv: true,
    stdin: options.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  });
  const child = command.spawn();
  const timer = setTimeout(() => {
    try {
      child.kill("SIGKILL");
    } catch { /* gone */ }
  }, options.timeoutMs ?? 60_000);
  if (options.stdin !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(options.stdin));
    await writer.close();
  }
  const output = await child.output();
  clearTimeout(timer);
  const decoder = new TextDecoder();
  return {
    code: output.code,
    stdout: decoder.decode(output.stdout),
    stderr: decoder.decode(output.stderr),
  };
}

/** Parses NDJSON output into values (fails on a line that is not JSON). */
export function parseNdjson(text: string): unknown[] {
  return text.split("\n").filter((line) => line !== "").map((line) => JSON.parse(line));
}

/** A temporary directory removed when the returned disposable is disposed. */
export async function tempDir(prefix = "jn-test-"): Promise<string> {
  return await Deno.makeTempDir({ prefix });
}
