/**
 * Calls through a jn session (docs/session.md), three tables:
 *
 * 1. a warm `jn cat` of the trivial server through a session, from source
 *    and from the bundle, against an empty `deno run` (the target:
 *    ≤ 1.5×), with the cold call beside it;
 * 2. N sequential `jn cat` of an npx server's tool (server-everything via
 *    `mcp+npx://`) through a session against N cold calls (target: ≥ 10×
 *    faster), each loop one timed command;
 * 3. one call through a jn session against one `mcpc @session tools-call`
 *    (mcpc's session open, as in the cold tables), server-everything on
 *    Node 24 (target: no slower per call); mcpc missing: said in the table.
 *
 * The sessions live in a directory of the bench's own (`XDG_RUNTIME_DIR`
 * under $JN_BENCH_HOME), never the user's; each table starts its sessions
 * untimed and stops them after.
 *
 * Run alone: deno task bench session [--rounds N] [--quick]
 *
 * @module
 */

import { type Bench, measure, type Measured } from "../measure.ts";
import { benchEnv, DENO, HOME_DIR, jn, jnBundled, ROOT, WORK } from "../env.ts";
import { EVERYTHING_JS, NODE_BIN_DIR, type Peer, peerCommand } from "../peers.ts";
import { table, timingTable } from "../table.ts";
import type { ScenarioOptions, Section } from "./types.ts";

/** The reference of the warm call: an empty `deno run` outside the repo. */
export const SESSION_EMPTY = "deno run empty.ts (--no-config)";
/** The warm call from source and from the bundle. */
export const WARM_SOURCE = "jn cat through a session";
export const WARM_BUNDLE = "jn cat through a session, bundle";
/** The loops of table 2. */
export const LOOP_SESSION = "through a session";
export const LOOP_COLD = "cold (no session)";

const TRIVIAL = "mcp+uvx://trivial";
const NPX_EVERYTHING = "mcp+npx://@modelcontextprotocol/server-everything@2026.8.31";

/** The three tables. */
export async function sessionScenario(
  options: ScenarioOptions & { mcpc?: Peer },
): Promise<Section[]> {
  const env = await sessionEnv();
  const sections: Section[] = [];
  sections.push(await warmTable(env, options));
  sections.push(await loopTable(env, options));
  sections.push(await mcpcTable(env, options));
  return sections;
}

/** The bench's environment with a sessions directory of its own. */
async function sessionEnv(): Promise<Record<string, string>> {
  const runtime = `${HOME_DIR}/sessions-run`;
  await Deno.mkdir(runtime, { recursive: true, mode: 0o700 });
  await Deno.chmod(runtime, 0o700);
  return { ...benchEnv(), XDG_RUNTIME_DIR: runtime };
}

/** Runs `body` with sessions of `sources` started (untimed), and stops them after. */
async function withSessions<T>(
  env: Record<string, string>,
  sources: string[],
  body: () => Promise<T>,
): Promise<T> {
  for (const source of sources) {
    // The first start of an npx server downloads it: a bound of minutes.
    const start = ["session", "start", "--idle", "0", "--connect-timeout", "5m", "-q", source];
    const out = await run(jn(start), env);
    if (out.code !== 0) throw new Error(`jn session start ${source}: ${out.stderr.trim()}`);
  }
  try {
    return await body();
  } finally {
    await run(jn(["session", "stop", "--all", "-q"]), env);
  }
}

async function warmTable(env: Record<string, string>, options: ScenarioOptions): Promise<Section> {
  const empty = `${WORK}/empty.ts`;
  await Deno.writeTextFile(empty, "");
  const call = ["cat", `${TRIVIAL}?tool=echo&text=hi`];
  const check = (stdout: string, code: number) =>
    code !== 0 ? `exit ${code}` : stdout.includes("hi") ? undefined : "no answer";
  const benches: Bench[] = [
    { name: SESSION_EMPTY, argv: [DENO, "run", "--no-config", empty], env },
    {
      name: "deno run empty.ts (in the repo)",
      argv: [DENO, "run", `${ROOT}/scripts/bench/fixtures/empty.ts`],
      env,
    },
    { name: WARM_SOURCE, argv: jn(call), env, check },
    ...(options.bundle ? [{ name: WARM_BUNDLE, argv: jnBundled(call), env, check }] : []),
    { name: "jn cat, cold (--no-session)", argv: jn([...call, "--no-session"]), env, check },
  ];
  const rows = await withSessions(
    env,
    [TRIVIAL],
    () => measure(benches, { rounds: options.rounds, onRound: options.onRound }),
  );
  return {
    title: "Warm call through a session — trivial server",
    part: "warm",
    body: timingTable(rows, rows[0], rows[1]),
    rows,
  };
}

async function loopTable(
  benchEnv: Record<string, string>,
  options: ScenarioOptions,
): Promise<Section> {
  // The system's npx and node: the system npx run by the peers' Node 24 does not start the server.
  const env = { ...benchEnv, PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" };
  const count = options.quick ? 10 : 100;
  const call = jn(["cat", `${NPX_EVERYTHING}?command=stdio&tool=echo&message=hi`]);
  const loop = (argv: string[]) => [
    "bash",
    "-c",
    `for i in $(seq ${count}); do "$@" >/dev/null || exit 1; done`,
    "loop",
    ...argv,
  ];
  const benches: Bench[] = [
    { name: LOOP_COLD, argv: loop([...call, "--no-session"]), env },
    { name: LOOP_SESSION, argv: loop(call), env },
  ];
  // One round: a cold loop of an npx server takes minutes.
  let rows: Measured[];
  try {
    rows = await withSessions(
      env,
      [`${NPX_EVERYTHING}?command=stdio`],
      () => measure(benches, { rounds: 1, onRound: options.onRound }),
    );
  } catch (error) {
    return {
      title: `${count} sequential calls of an npx server's tool`,
      part: "loop",
      body: `not run: ${(error as Error).message}`,
    };
  }
  return {
    title: `${count} sequential calls of an npx server's tool (server-everything via npx)`,
    part: "loop",
    body: timingTable(rows, rows[0]),
    rows,
  };
}

async function mcpcTable(
  env: Record<string, string>,
  options: ScenarioOptions & { mcpc?: Peer },
): Promise<Section> {
  const title = "One call per process: a jn session vs mcpc's session — server-everything";
  const server = [`${NODE_BIN_DIR}/node`, EVERYTHING_JS, "stdio"];
  const uri = `mcp+node://${EVERYTHING_JS}?command=stdio`;
  const missing = options.mcpc === undefined
    ? "mcpc is not installed (deno task bench without --no-peers installs it)"
    : options.unavailable?.[options.mcpc.slug];
  if (missing !== undefined) {
    return { title, part: "mcpc", body: table(["note"], [[`SKIPPED: ${missing}`]]) };
  }
  const mcpc = await peerCommand(options.mcpc!, "call", server, "message");
  const benches: Bench[] = [
    { name: "jn cat through a session", argv: jn(["cat", `${uri}&tool=echo&message=hi`]), env },
    { name: options.mcpc!.name, argv: mcpc.argv, env },
  ];
  for (const argv of mcpc.setup ?? []) {
    const out = await run(argv, env);
    if (out.code !== 0) {
      const why = out.stderr.trim().split("\n").slice(-1)[0];
      return { title, part: "mcpc", body: table(["note"], [[`mcpc connect failed: ${why}`]]) };
    }
  }
  try {
    const rows = await withSessions(
      env,
      [uri],
      () => measure(benches, { rounds: options.rounds, onRound: options.onRound }),
    );
    return { title, part: "mcpc", body: timingTable(rows, rows[1]), rows };
  } finally {
    for (const argv of mcpc.teardown ?? []) await run(argv, env);
  }
}

async function run(argv: string[], env: Record<string, string>) {
  const out = await new Deno.Command(argv[0], {
    args: argv.slice(1),
    env,
    stdout: "null",
    stderr: "piped",
  }).output();
  return { code: out.code, stderr: new TextDecoder().decode(out.stderr) };
}
