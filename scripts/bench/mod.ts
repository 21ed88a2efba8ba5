/**
 * `deno task bench [SCENARIO…] [--rounds N] [--quick] [--no-peers] [--no-bundle] [--write]`
 *
 * Scenarios (default: all): `cold` (cold list and call vs raw clients and
 * peers, trivial server), `everything` (the same against
 * @modelcontextprotocol/server-everything), `startup` (commands that talk to
 * no server, and the SDK-not-loaded check), `put` (throughput at 16 in
 * flight), `put-memory` (10k→1M records), `payload` (10/25/50 MB results),
 * `teardown` (how long servers take to exit after their stdin closes).
 * Prints markdown on stdout, progress on stderr; `--write` also writes
 * bench/RESULTS.md. Peers and generated files live in $JN_BENCH_HOME
 * (default ~/.cache/jn-bench), installed on first use.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { buildBundle, DENO, HOME_DIR, prepareWork, ROOT } from "./env.ts";
import { timeAvailable } from "./measure.ts";
import { EVERYTHING, EVERYTHING_JS, install, NODE, NODE_BIN_DIR, PEERS } from "./peers.ts";
import { coldScenario, TRIVIAL } from "./scenarios/cold.ts";
import { payloadScenario } from "./scenarios/payload.ts";
import { putMemoryScenario, putScenario } from "./scenarios/put.ts";
import { startupScenario } from "./scenarios/startup.ts";
import { teardownScenario } from "./scenarios/teardown.ts";
import type { ScenarioOptions, Section } from "./scenarios/types.ts";

const ALL = ["cold", "everything", "startup", "put", "put-memory", "payload", "teardown"];

const { values, positionals } = parseArgs({
  args: Deno.args,
  allowPositionals: true,
  options: {
    rounds: { type: "string", default: "7" },
    quick: { type: "boolean", default: false },
    "no-peers": { type: "boolean", default: false },
    "no-bundle": { type: "boolean", default: false },
    write: { type: "boolean", default: false },
  },
});
const scenarios = positionals.length ? positionals : ALL;
for (const name of scenarios) {
  if (!ALL.includes(name)) throw new Error(`Unknown scenario "${name}"; known: ${ALL.join(", ")}`);
}

const say = (text: string) => Deno.stderr.writeSync(new TextEncoder().encode(text + "\n"));
const timeProblem = await timeAvailable();
if (timeProblem) throw new Error(`/usr/bin/time (GNU time) is needed for peak RSS: ${timeProblem}`);
await prepareWork();

const unavailable: Record<string, string> = {};
const needsPeers = scenarios.some((s) => ["cold", "everything", "teardown"].includes(s));
if (needsPeers) {
  const nodeProblem = await install(NODE);
  if (nodeProblem) {
    say(`bench: Node 24 could not be installed (${nodeProblem}); peers use the system node`);
  }
  for (const peer of values["no-peers"] ? [] : PEERS) {
    say(`bench: installing ${peer.packages.join(" ")} into ${HOME_DIR}/peers/${peer.slug}`);
    const problem = await install(peer);
    if (problem) unavailable[peer.slug] = problem;
  }
}
let bundle = !values["no-bundle"] &&
  scenarios.some((s) => ["cold", "everything", "startup"].includes(s));
if (bundle) {
  say("bench: deno task bundle (the build deno task compile compiles)");
  const problem = await buildBundle();
  if (problem) {
    say(`bench: bundling failed, no bundle rows: ${problem}`);
    bundle = false;
  }
}
const started = new Date();
const options: ScenarioOptions = {
  rounds: Number(values.rounds),
  quick: values.quick,
  bundle,
  unavailable,
  onRound: (round) => say(`bench:   round ${round}/${values.rounds}`),
};
const peers = values["no-peers"] ? [] : PEERS;
const sections: Section[] = [];
for (const name of scenarios) {
  say(`bench: ${name}`);
  switch (name) {
    case "cold":
      sections.push(...await coldScenario(TRIVIAL, { ...options, peers }));
      break;
    case "teardown":
    case "everything": {
      const problem = await install(EVERYTHING);
      if (name === "teardown") {
        sections.push(...await teardownScenario(options));
        break;
      }
      if (problem) {
        sections.push({ title: "server-everything", body: `not installed: ${problem}` });
        break;
      }
      const server = [`${NODE_BIN_DIR}/node`, EVERYTHING_JS, "stdio"];
      sections.push(
        ...await coldScenario({
          title: "@modelcontextprotocol/server-everything 2026.8.31 (Node 24)",
          server,
          uri: `mcp+node://${EVERYTHING_JS}?command=stdio`,
          argKey: "message",
        }, { ...options, peers }),
      );
      break;
    }
    case "startup":
      sections.push(...await startupScenario(options));
      break;
    case "put":
      sections.push(...await putScenario(options));
      break;
    case "put-memory":
      sections.push(...await putMemoryScenario(options));
      break;
    case "payload":
      sections.push(...await payloadScenario(options));
      break;
  }
}
const report = [
  await machine(started),
  ...sections.map((s) => `## ${s.title}\n\n${s.body}\n`),
  commandList(sections),
].join("\n");
await Deno.stdout.write(new TextEncoder().encode(report));
if (values.write) {
  const path = `${ROOT}/bench/RESULTS.md`;
  await Deno.mkdir(`${ROOT}/bench`, { recursive: true });
  // TARGETS.md (the verdict on the targets) and NOTES.md (the optimisation steps) are
  // written by hand from the runs; they follow the tables.
  const read = (name: string) => Deno.readTextFile(`${ROOT}/bench/${name}`).catch(() => "");
  const at = report.indexOf("## Commands timed");
  await Deno.writeTextFile(
    path,
    `# jn benchmark results\n\n${report.slice(0, at)}\n${await read("TARGETS.md")}${await read(
      "NOTES.md",
    )}\n${report.slice(at)}`,
  );
  say(`bench: wrote ${path}`);
}

/** Every timed command line, once, with the scratch folder and the repo abbreviated. */
function commandList(all: Section[]): string {
  const seen = new Map<string, string>();
  for (const section of all) {
    for (const row of section.rows ?? []) {
      const line = row.bench.argv.map((arg) =>
        /[\s&?;|<>]/.test(arg) ? `'${arg}'` : arg
      ).join(" ") +
        (row.bench.stdin ? ` < ${row.bench.stdin}` : "");
      if (!seen.has(row.bench.name)) seen.set(row.bench.name, line);
    }
  }
  const lines = [...seen].map(([name, line]) =>
    `- ${name}: \`${
      line.replaceAll(HOME_DIR, "$JN_BENCH_HOME").replaceAll(ROOT, ".").replaceAll(DENO, "deno")
    }\``
  );
  return `## Commands timed (PATH starts with $JN_BENCH_HOME/work/bin, whose uvx is the trivial server)\n\n${
    lines.join("\n")
  }\n`;
}

async function machine(start: Date): Promise<string> {
  const sh = async (cmd: string) => {
    const out = await new Deno.Command("bash", {
      args: ["-c", cmd],
      stdout: "piped",
      stderr: "null",
    })
      .output();
    return new TextDecoder().decode(out.stdout).trim();
  };
  const cpu = await sh("grep -m1 'model name' /proc/cpuinfo | cut -d: -f2");
  const ram = await sh("free -h | awk '/Mem:/{print $2}'");
  const nproc = await sh("nproc");
  const load = await sh("cut -d' ' -f1-3 /proc/loadavg");
  const node = await sh(`${NODE_BIN_DIR}/node --version 2>/dev/null || node --version`);
  return [
    `Run ${start.toISOString()} → ${new Date().toISOString()} (load average at the end: ${load})`,
    `Machine: ${nproc} CPUs (${cpu}), ${ram} RAM, ${Deno.build.target}; ` +
    `Deno ${Deno.version.deno} (V8 ${Deno.version.v8}); peers on Node ${node}.`,
    `Command: \`deno task bench ${Deno.args.join(" ")}\` (rounds: ${values.rounds}).`,
    `Deno: ${DENO}`,
    "",
  ].join("\n");
}
