/**
 * The probe server of the sandbox tests (fixtures/probe_server.mjs: one
 * self-contained file, so it can be copied into a HOME, an npx cache or a
 * fake launcher) and small helpers to call it through jn.
 *
 * @module
 */

import { parseNdjson, runJn, type RunOptions } from "../helpers.ts";

/** The probe server's source. */
export const PROBE = new URL("./fixtures/probe_server.mjs", import.meta.url).pathname;

/** Copies the probe server to `path` (executable), creating its directory. */
export async function probeAt(path: string): Promise<string> {
  await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
  await Deno.copyFile(PROBE, path);
  await Deno.chmod(path, 0o755);
  return path;
}

/** Runs `jn cat FLAGS… URI`; `record` is the first record of stdout. */
export async function cat(uri: string, flags: string[], options: RunOptions = {}) {
  const result = await runJn(["cat", ...flags, uri], options);
  const [record] = parseNdjson(result.stdout) as { text: string; isError?: boolean }[];
  return { ...result, record };
}

/** A URI query string of `args`. */
export function query(args: Record<string, string>): string {
  return new URLSearchParams(args).toString();
}
