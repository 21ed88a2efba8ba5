/**
 * Cold one-shot `tools/list` and `tools/call`: every command starts the
 * server, does the handshake and one operation, and exits. Rows: the raw
 * Deno client (the reference of the first ratio: the physical limit), the
 * raw bash client, jn (`inspect`, `cat ?list=tools`, `cat ?tool=echo`, and
 * the bundle), jn's session layer without the CLI (the reference of the wall
 * and peak RSS ratios of the next columns: the SDK-only floor of this
 * design), and every peer that could be installed.
 *
 * Run alone: deno task bench cold [--rounds N]
 *
 * @module
 */

import { type Bench, measure, type Measured } from "../measure.ts";
import { benchEnv, DENO, jn, jnBundled, rawBash, rawDeno, ROOT, SERVER } from "../env.ts";
import { type Peer, peerCommand, PEERS } from "../peers.ts";
import { timingTable } from "../table.ts";
import type { ScenarioOptions, Section } from "./types.ts";

/** The row of the raw Deno client, the first reference. */
export const RAW_DENO = "raw Deno client";
/** The row of the SDK-only minimal client (clients/session_client.ts), the second reference. */
export const SESSION_CLIENT = "jn session layer (no CLI)";
/** The bundle's row of a cold list or call. */
export const bundleRow = (op: "list" | "call"): string =>
  op === "list" ? "jn inspect, bundle" : "jn cat, bundle";

/** What a cold scenario talks to. */
export interface ColdTarget {
  /** Heading. */
  title: string;
  /** Server argv for clients that take a command. */
  server: string[];
  /** jn's source URI for that same server (no query). */
  uri: string;
  /** The echo tool's argument name. */
  argKey: string;
}

/** The trivial perl server. */
export const TRIVIAL: ColdTarget = {
  title: "trivial server",
  server: [SERVER],
  uri: "mcp+uvx://trivial",
  argKey: "text",
};

/** Cold list and cold call against one server. */
export async function coldScenario(
  target: ColdTarget,
  options: ScenarioOptions & { peers?: Peer[] },
): Promise<Section[]> {
  const sections: Section[] = [];
  for (const op of ["list", "call"] as const) {
    const benches = await coldBenches(target, op, options.peers ?? PEERS, options);
    const setups = benches.flatMap((b) => b.setup ?? []);
    for (const argv of setups) await quiet(argv);
    let rows: Measured[];
    try {
      rows = await measure(benches, { rounds: options.rounds, onRound: options.onRound });
    } finally {
      for (const argv of benches.flatMap((b) => b.teardown ?? [])) await quiet(argv);
    }
    sections.push({
      title: `Cold ${op === "list" ? "tools/list" : "tools/call"} — ${target.title}`,
      part: op,
      body: timingTable(rows, rows[0], rows.find((row) => row.bench.name === SESSION_CLIENT)),
      rows,
    });
  }
  return sections;
}

type ColdBench = Bench & { setup?: string[][]; teardown?: string[][] };

async function coldBenches(
  target: ColdTarget,
  op: "list" | "call",
  peers: Peer[],
  options: ScenarioOptions,
): Promise<ColdBench[]> {
  const env = benchEnv();
  const key = target.argKey;
  const join = target.uri.includes("?") ? "&" : "?";
  const expect = op === "list" ? "echo" : "hi";
  const check = (stdout: string, code: number) =>
    code !== 0 ? `exit ${code}` : stdout.includes(expect) ? undefined : `no "${expect}" in stdout`;
  const benches: ColdBench[] = [
    {
      name: RAW_DENO,
      argv: rawDeno(op === "list" ? "list" : `call=${key}`, target.server),
    },
    {
      name: "raw bash client",
      argv: rawBash(op === "list" ? "list" : `call=${key}`, target.server),
    },
  ];
  if (op === "list") {
    benches.push({ name: "jn inspect", argv: jn(["inspect", target.uri]) });
    benches.push({
      name: "jn cat ?list=tools",
      argv: jn(["cat", `${target.uri}${join}list=tools`]),
    });
  } else {
    benches.push({
      name: "jn cat ?tool=echo",
      argv: jn(["cat", `${target.uri}${join}tool=echo&${key}=hi`]),
    });
  }
  if (options.bundle) {
    const args = op === "list"
      ? ["inspect", target.uri]
      : ["cat", `${target.uri}${join}tool=echo&${key}=hi`];
    benches.push({ name: bundleRow(op), argv: jnBundled(args) });
  }
  benches.push({
    name: SESSION_CLIENT,
    argv: [
      DENO,
      "run",
      "-A",
      `${ROOT}/scripts/bench/clients/session_client.ts`,
      op === "list" ? "list" : `call=${key}`,
      "--",
      ...target.server,
    ],
  });
  for (const peer of peers) {
    if (options.unavailable?.[peer.slug]) {
      benches.push({
        name: peer.name,
        argv: ["false"],
        check: () => `not installed: ${options.unavailable![peer.slug]}`,
      });
      continue;
    }
    const command = await peerCommand(peer, op, target.server, key);
    benches.push({ name: peer.name, ...command });
  }
  return benches.map((b) => ({ ...b, env, check: b.check ?? check }));
}

async function quiet(argv: string[]): Promise<void> {
  await new Deno.Command(argv[0], {
    args: argv.slice(1),
    env: benchEnv(),
    stdout: "null",
    stderr: "null",
  }).output().catch(() => {});
}
