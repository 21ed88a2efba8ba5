/**
 * Helpers of the put/filter tests: fixture-server URIs, NDJSON input, and
 * running jn inside a real shell pipeline (`sh -c`), exactly as users do.
 *
 * @module
 */

import { permissionFlags } from "../../lib/sandbox/permissions.ts";
import { baseEnv, finish, FIXTURES, MAIN, ROOT, type RunResult } from "../helpers.ts";

/** The plain JSON-RPC fixture server (tests/fixtures/servers/fixture.mjs). */
export const FIXTURE = `${FIXTURES}/servers/fixture.mjs`;

/** The key-value store whose state lives only in its process (tests/fixtures/servers/kv_store.mjs). */
export const KV = `mcp+node://${FIXTURES}/servers/kv_store.mjs`;

/** `mcp+node:///…/fixture.mjs?tool=TOOL&…` with fixture switches as `command=` values. */
export function fixtureUri(
  tool: string,
  options: { switches?: string[]; args?: Record<string, string> } = {},
): string {
  const query = new URLSearchParams({ tool, ...options.args });
  for (const flag of options.switches ?? []) query.append("command", flag);
  return `mcp+node://${FIXTURE}?${query.toString().replaceAll("+", "%20")}`;
}

/** NDJSON text of the given records, one per line. */
export function ndjson(records: unknown[]): string {
  return records.map((record) => JSON.stringify(record) + "\n").join("");
}

/** The shell command that runs jn from source with the production permissions. */
export function jnCommand(): string {
  return [Deno.execPath(), "run", ...permissionFlags(), MAIN].map(shellQuote).join(" ");
}

/** Quotes one word for sh. */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_\/.,:=+@%-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/** Runs `script` with `sh -c`, `jn` being a shell function that runs jn from source. */
export async function runShell(
  script: string,
  options: { cwd?: string; timeoutMs?: number } = {},
): Promise<RunResult> {
  const child = new Deno.Command("sh", {
    args: ["-c", `jn() { ${jnCommand()} "$@"; }\n${script}`],
    cwd: options.cwd ?? ROOT,
    env: baseEnv(),
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  return await finish(child, { timeoutMs: options.timeoutMs });
}

/** Lines of a call log written by the fixture's `--call-log PATH`. */
export async function readCallLog(path: string): Promise<{ name: string; arguments: unknown }[]> {
  try {
    const text = await Deno.readTextFile(path);
    return text.split("\n").filter((line) => line !== "").map((line) => JSON.parse(line));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return [];
    throw error;
  }
}
