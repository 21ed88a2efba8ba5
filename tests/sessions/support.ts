/**
 * Helpers of the session tests: a throwaway HOME whose sessions directory
 * is the test's own (`~/.local/jn/sessions`), jn run from source in it, the
 * counter fixture (state only in its process), and what a test asks of a
 * process: is it alive (a zombie is not), and what is its command line.
 *
 * @module
 */

import assert from "node:assert/strict";
import { FIXTURES, runJn, type RunOptions, type RunResult } from "../helpers.ts";
import { living } from "../session/tree_support.ts";

/** The counter fixture as a naked URI (tests/fixtures/servers/counter.mjs). */
export const COUNTER = `mcp+node://${FIXTURES}/servers/counter.mjs`;

/** A test's own HOME, and jn run in it. */
export interface SessionHome {
  /** The temporary directory (jn runs here unless told otherwise). */
  dir: string;
  /** Its HOME. */
  home: string;
  /** The sessions directory jn uses there. */
  sessions: string;
  /** `jn ARGS…` with this HOME. */
  jn(args: string[], options?: RunOptions): Promise<RunResult>;
  /** Stops every session, checks nothing is left, removes the directory. */
  [Symbol.asyncDispose](): Promise<void>;
}

/** A fresh HOME for one test. */
export async function sessionHome(): Promise<SessionHome> {
  const dir = await Deno.makeTempDir({ prefix: "jn-sess-" });
  const home = `${dir}/home`;
  await Deno.mkdir(home);
  const jn = (args: string[], options: RunOptions = {}) =>
    runJn(args, {
      timeoutMs: 60_000,
      ...options,
      cwd: options.cwd ?? dir,
      env: { HOME: home, ...options.env },
    });
  return {
    dir,
    home,
    sessions: `${home}/.local/jn/sessions`,
    jn,
    async [Symbol.asyncDispose]() {
      await jn(["session", "stop", "--all", "-q"]).catch(() => {});
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
}

/** The one JSON value of a `--json` run's stdout. */
export function output(result: RunResult): Record<string, unknown> {
  assert(result.code === 0, `jn failed (${result.code}): ${result.stderr}`);
  return JSON.parse(result.stdout.trim().split("\n")[0]);
}

/** Whether a process runs (a zombie does not: not every init reaps). */
export async function alive(pid: number): Promise<boolean> {
  return (await living([pid])).length > 0;
}

/** Waits until `ready()` holds (polling), failing after `ms`. */
export async function until(ready: () => boolean | Promise<boolean>, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await ready())) {
    if (Date.now() > deadline) throw new Error(`not so after ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The running sessions of a HOME, as `jn session list --format json` gives them. */
export async function listed(home: SessionHome): Promise<Record<string, unknown>[]> {
  const result = await home.jn(["session", "list", "--format", "json"]);
  assert(result.code === 0, result.stderr);
  return result.stdout.trim().split("\n").filter(Boolean).map((line) => JSON.parse(line));
}

/** The pid of the one running session of a HOME. */
export async function sessionPid(home: SessionHome): Promise<number> {
  const running = (await listed(home)).filter((entry) => entry.state === "running");
  assert(running.length === 1, `one session expected: ${JSON.stringify(running)}`);
  return running[0].pid as number;
}
