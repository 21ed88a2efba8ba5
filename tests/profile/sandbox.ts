/**
 * Throwaway user trees for profile tests: a HOME, a project directory (the
 * cwd of jn runs), helpers to write profile files, and `run()` that starts
 * jn there with that HOME (and Deno's cache directory, so a fresh HOME does
 * not make Deno download jn's packages again).
 *
 * @module
 */

import { dirname, join } from "node:path";
import { DENO_DIR, FIXTURES, runJn, runJnHere, type RunResult } from "../helpers.ts";

/** The fixture MCP server (plain JSON-RPC, switches in argv). */
export const FIXTURE = `${FIXTURES}/servers/fixture.mjs`;

/**
 * Deno's cache directory of this machine, for child runs with another HOME:
 * tests/helpers.ts DENO_DIR (`$DENO_DIR`, or the default cache directory that
 * `deno info --json` reports), without starting Deno to ask.
 */
export function denoCacheDir(): Promise<string> {
  return Promise.resolve(DENO_DIR);
}

/** A temporary HOME and project. */
export interface Sandbox {
  root: string;
  home: string;
  project: string;
  /** `~/.local/jn/profiles/mcp` of this HOME. */
  user: string;
  /** `.jn/profiles/mcp` of the project. */
  projectProfiles: string;
  /** Writes a file (parents created) under root-relative or absolute `path`. */
  write(path: string, text: string): Promise<string>;
  /** Runs jn in the project with this HOME; `env` adds variables. */
  run(
    args: string[],
    options?: { env?: Record<string, string>; stdin?: string; cwd?: string },
  ): Promise<RunResult>;
  dispose(): Promise<void>;
}

/**
 * Creates a sandbox; dispose it in `finally`. With `here`, `run()` runs the
 * CLI in this process ({@linkcode runJnHere}) instead of starting jn.
 */
export async function sandbox(options: { here?: boolean } = {}): Promise<Sandbox> {
  const root = await Deno.makeTempDir({ prefix: "jn-profile-" });
  const home = join(root, "home");
  const project = join(root, "project");
  await Deno.mkdir(home);
  await Deno.mkdir(project);
  const cache = await denoCacheDir();
  return {
    root,
    home,
    project,
    user: join(home, ".local", "jn", "profiles", "mcp"),
    projectProfiles: join(project, ".jn", "profiles", "mcp"),
    async write(path, text) {
      const full = path.startsWith("/") ? path : join(root, path);
      await Deno.mkdir(dirname(full), { recursive: true });
      await Deno.writeTextFile(full, text);
      return full;
    },
    run(args, runOptions = {}) {
      return (options.here ? runJnHere : runJn)(args, {
        cwd: runOptions.cwd ?? project,
        stdin: runOptions.stdin,
        env: { HOME: home, DENO_DIR: cache, ...runOptions.env },
      });
    },
    async dispose() {
      await Deno.remove(root, { recursive: true });
    },
  };
}

/** A `_meta.json` that starts the fixture server with extra arguments. */
export function fixtureMeta(extra: Record<string, unknown> = {}, args: string[] = []): string {
  return JSON.stringify({ command: "node", args: [FIXTURE, ...args], ...extra }, null, 2);
}
