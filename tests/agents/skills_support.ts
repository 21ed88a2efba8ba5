/**
 * The skills fixture server (tests/fixtures/servers/skills.mjs) opened
 * through the library, with its request log (every read and skills request,
 * written before it answers) at hand.
 */

import { type Connection, open } from "../../mod.ts";
import { baseEnv, FIXTURES, tempDir } from "../helpers.ts";

/** The fixture's naked URI with its switches. */
export function skillsSource(...switches: string[]): string {
  const query = switches.map((s) => `command=${encodeURIComponent(s)}`).join("&");
  return `mcp+node://${FIXTURES}/servers/skills.mjs${query ? `?${query}` : ""}`;
}

/** An open connection to the fixture and what it logged. */
export interface SkillsServer {
  conn: Connection;
  /** The lines it logged so far (`read URI`, `skills/list`, …). */
  log(): Promise<string[]>;
  /** The URIs it was asked to read so far, in order. */
  reads(): Promise<string[]>;
}

/** Runs `fn` with the fixture open (with `switches`); closes it after. */
export async function withSkills<T>(
  switches: string[],
  fn: (server: SkillsServer) => Promise<T>,
): Promise<T> {
  const dir = await tempDir("jn-skills-log-");
  const path = `${dir}/log`;
  await Deno.writeTextFile(path, "");
  const log = async () => (await Deno.readTextFile(path)).split("\n").filter(Boolean);
  const conn = await open(skillsSource(`--log=${path}`, ...switches), {
    cwd: Deno.cwd(),
    env: baseEnv(),
  });
  try {
    return await fn({
      conn,
      log,
      reads: async () =>
        (await log()).filter((line) => line.startsWith("read ")).map((line) => line.slice(5)),
    });
  } finally {
    await conn.close();
    await Deno.remove(dir, { recursive: true });
  }
}

/** Whether anything exists at `path` (a dangling symlink counts). */
export async function present(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}

/** The names in `dir`, sorted. */
export async function names(dir: string): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of Deno.readDir(dir)) found.push(entry.name);
  return found.sort();
}
