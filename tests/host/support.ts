/**
 * Helpers of the `jn host` tests: a throwaway HOME and project holding
 * copies of real hosts' config files (tests/fixtures/hosts/, as each host
 * writes them: comments, trailing commas, other settings, secrets of other
 * entries), and `jn` run in this process against them with a PATH the test
 * controls (so that no `jn` of the machine's is found).
 *
 * @module
 */

import { dirname, join } from "node:path";
import { permissionFlags } from "../../lib/sandbox/permissions.ts";
import { FIXTURES, MAIN, runJnHere, type RunResult } from "../helpers.ts";

/** The fixtures of hosts' config files. */
export const HOST_FIXTURES = `${FIXTURES}/hosts`;

/** Where each host keeps each fixture, relative to HOME (`~`) or the project (`.`). */
export const PLACES = {
  claude: { user: ["~/.config/Claude/claude_desktop_config.json", "claude_desktop_config.json"] },
  "claude-code": {
    user: ["~/.claude.json", "claude.json"],
    project: ["./.mcp.json", "dot_mcp.json"],
  },
  cursor: { user: ["~/.cursor/mcp.json", "cursor_mcp.json"], project: ["./.cursor/mcp.json"] },
  vscode: {
    user: ["~/.config/Code/User/mcp.json", "vscode_mcp.json"],
    settings: ["~/.config/Code/User/settings.json", "vscode_settings.json"],
    project: ["./.vscode/mcp.json"],
  },
  windsurf: { user: ["~/.codeium/windsurf/mcp_config.json", "windsurf_mcp_config.json"] },
  zed: {
    user: ["~/.config/zed/settings.json", "zed_settings.json"],
    project: ["./.zed/settings.json"],
  },
} as const;

/** A HOME and a project with the hosts' files copied in. */
export interface HostBox {
  root: string;
  home: string;
  project: string;
  /** An empty directory first on PATH (put a `jn` there to be found). */
  bin: string;
  /** `~/…` or `./…` as an absolute path. */
  at(place: string): string;
  run(args: string[], env?: Record<string, string>): Promise<RunResult>;
  dispose(): Promise<void>;
}

/** A box with every fixture copied to its host's place. */
export async function hostBox(): Promise<HostBox> {
  const root = await Deno.makeTempDir({ prefix: "jn-host-" });
  const home = join(root, "home");
  const project = join(root, "project");
  const bin = join(root, "bin");
  for (const dir of [home, project, bin]) await Deno.mkdir(dir);
  const at = (place: string) =>
    place.startsWith("~/") ? join(home, place.slice(2)) : join(project, place.slice(2));
  for (const places of Object.values(PLACES)) {
    for (const [place, fixture] of Object.values(places) as [string, string?][]) {
      if (fixture === undefined) continue;
      await Deno.mkdir(dirname(at(place)), { recursive: true });
      await Deno.copyFile(join(HOST_FIXTURES, fixture), at(place));
    }
  }
  return {
    root,
    home,
    project,
    bin,
    at,
    run: (args, env = {}) =>
      runJnHere(args, { cwd: project, env: { HOME: home, PATH: bin, ...env } }),
    dispose: () => Deno.remove(root, { recursive: true }),
  };
}

/** The argv of the entry `jn host add` writes from source for `@profile`. */
export function sourceArgv(profile: string): { command: string; args: string[] } {
  return { command: Deno.execPath(), args: ["run", ...permissionFlags(), MAIN, "serve", profile] };
}

/** Whether `before`'s lines all appear in `after`, in order (what an edit must keep). */
export function keepsLines(before: string, after: string): string | undefined {
  const lines = after.split("\n");
  let at = 0;
  for (const line of before.split("\n")) {
    const found = lines.indexOf(line, at);
    if (found === -1) return line;
    at = found + 1;
  }
  return undefined;
}
