/**
 * Commands that talk to no server — `--version`, `--help`, `completions`,
 * `profile list`, `profile info` — against `deno run` of an empty file: outside the repo with
 * `--no-config` (the first ratio; the bundle runs with `--no-config` too), and in the repo, with
 * its deno.json, as jn from source runs (the second ratio, wall and peak RSS). Target ≤ 1.3×. Each jn command is also run once under `deno run --log-level=debug`,
 * which logs every ES module Deno loads: the table says how many modules it
 * loaded and whether any of them is the MCP SDK (it must not be).
 *
 * Run alone: deno task bench startup [--rounds N]
 *
 * @module
 */

import { type Bench, measure } from "../measure.ts";
import { benchEnv, DENO, jn, jnBundled, ROOT, WORK } from "../env.ts";
import { table, timingTable } from "../table.ts";
import type { ScenarioOptions, Section } from "./types.ts";

const COMMANDS: [string, string[]][] = [
  ["jn --version", ["--version"]],
  ["jn --help", ["--help"]],
  ["jn completions bash", ["completions", "bash"]],
  ["jn profile list", ["profile", "list"]],
  ["jn profile info @demo", ["profile", "info", "@demo"]],
];

/** The empty `deno run` outside the repo (`--no-config`): the reference of the bundle. */
export const EMPTY_NO_CONFIG = "deno run empty.ts (--no-config)";
/** The empty `deno run` in the repo (its deno.json): the reference of jn from source. */
export const EMPTY_IN_REPO = "deno run empty.ts (in the repo)";

/** The startup table and the module-graph check. */
export async function startupScenario(options: ScenarioOptions): Promise<Section[]> {
  const env = benchEnv();
  const outside = `${WORK}/empty.ts`;
  await Deno.writeTextFile(outside, "");
  const benches: Bench[] = [
    { name: EMPTY_NO_CONFIG, argv: [DENO, "run", "--no-config", outside] },
    {
      name: EMPTY_IN_REPO,
      argv: [DENO, "run", `${ROOT}/scripts/bench/fixtures/empty.ts`],
    },
  ];
  const graphRows: string[][] = [];
  for (const [name, args] of COMMANDS) {
    const graph = await moduleGraph(args, env);
    graphRows.push([
      name,
      graph.exists ? String(graph.modules) : "—",
      graph.exists
        ? (graph.sdk.length ? `**yes** (${graph.sdk.length})` : "no")
        : "command not on this branch",
    ]);
    if (!graph.exists) continue;
    benches.push({
      name,
      argv: jn(args),
      check: (_out, code) => code === 0 ? undefined : `exit ${code}`,
    });
  }
  if (options.bundle) {
    // The bundle (deno task bundle) that the release binaries are compiled from.
    for (const args of [["--version"], ["--help"], ["profile", "list"]]) {
      benches.push({
        name: `jn ${args.join(" ")}, bundle`,
        argv: jnBundled(args),
        check: (_out, code) => code === 0 ? undefined : `exit ${code}`,
      });
    }
  }
  const rows = await measure(benches.map((b) => ({ ...b, env })), {
    rounds: options.rounds,
    onRound: options.onRound,
  });
  return [
    {
      title: "Start-up of commands that talk to no server",
      body: timingTable(rows, rows[0], rows[1]),
      rows,
    },
    {
      title: "Modules loaded (deno run --log-level=debug)",
      body: table(["command", "ES modules loaded", "MCP SDK loaded"], graphRows),
    },
  ];
}

/** Runs a jn command with Deno's debug log and lists the modules it loaded. */
export async function moduleGraph(
  args: string[],
  env: Record<string, string>,
): Promise<{ exists: boolean; modules: number; sdk: string[] }> {
  const [deno, run, ...rest] = jn(args);
  const out = await new Deno.Command(deno, {
    args: [run, "--log-level=debug", ...rest],
    env,
    stdout: "null",
    stderr: "piped",
  }).output();
  const log = new TextDecoder().decode(out.stderr);
  const urls = new Set<string>();
  for (const match of log.matchAll(/code cache [a-z ]*for ES module: (\S+?),/g)) urls.add(match[1]);
  const sdk = [...urls].filter((url) => url.includes("@modelcontextprotocol"));
  const unknown = /unknown command|Unknown command/.test(log);
  return { exists: out.code === 0 && !unknown, modules: urls.size, sdk };
}
