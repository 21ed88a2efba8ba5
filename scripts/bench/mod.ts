/**
 * `deno task bench [SCENARIO…] [--rounds N] [--quick] [--no-peers] [--no-bundle] [--write]`
 * (`--help` for the usage text).
 *
 * Scenarios (default: all): `cold` (cold list and call vs raw clients, the
 * SDK-only minimal client and peers, trivial server), `everything` (the same
 * against @modelcontextprotocol/server-everything), `startup` (commands that
 * talk to no server, and the SDK-not-loaded check), `put` (throughput at 16
 * in flight vs the raw and the SDK-only pipelined clients), `put-memory`
 * (10k→1M records), `payload` (10/25/50 MB results), `teardown` (how long
 * servers take to exit after their stdin closes), `listing` (the bytes of
 * each listing format of @demo and server-everything, for agents), `serve`
 * (a host's calls through `jn serve` vs direct and vs an SDK-only proxy).
 * Prints markdown on stdout, progress on stderr, and last the "Issue 16
 * targets" table computed from the same run (targets.ts); `--write` also
 * writes bench/RESULTS.md, regenerated as a whole (this run, then the
 * hand-written bench/TARGETS.md and bench/NOTES.md as they are). Peers and
 * generated files live in $JN_BENCH_HOME (default ~/.cache/jn-bench),
 * installed on first use.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { buildBundle, DENO, HOME_DIR, prepareWork, ROOT } from "./env.ts";
import { timeAvailable } from "./measure.ts";
import { EVERYTHING, EVERYTHING_JS, install, NODE, NODE_BIN_DIR, PEERS } from "./peers.ts";
import { coldScenario, TRIVIAL } from "./scenarios/cold.ts";
import { listingScenario } from "./scenarios/listing.ts";
import { payloadScenario } from "./scenarios/payload.ts";
import { putMemoryScenario, putScenario } from "./scenarios/put.ts";
import { serveScenario } from "./scenarios/serve.ts";
import { sessionScenario } from "./scenarios/session.ts";
import { startupScenario } from "./scenarios/startup.ts";
import { teardownScenario } from "./scenarios/teardown.ts";
import type { ScenarioOptions, Section } from "./scenarios/types.ts";
import { TARGETS_TITLE, targetsTable } from "./targets.ts";

const ALL = [
  "cold",
  "everything",
  "startup",
  "put",
  "put-memory",
  "payload",
  "teardown",
  "listing",
  "serve",
  "session",
];

const USAGE =
  `Usage: deno task bench [SCENARIO…] [--rounds N] [--quick] [--no-peers] [--no-bundle] [--write]

Times jn against its references in rotated rounds and prints markdown on stdout (progress on
stderr), ending with the "Issue 16 targets" table computed from the same run.

Scenarios (default: all; they run in the order given):
  cold        cold tools/list and tools/call of a trivial server: raw clients, jn (source and
              bundle), the SDK-only minimal client, the peers
  everything  the same against @modelcontextprotocol/server-everything
  startup     commands that talk to no server (--version, --help, profile list, …) vs an empty
              deno run, and which modules each loads
  put         jn put at 16 in flight vs the raw and the SDK-only pipelined clients
  put-memory  jn put's peak RSS from 10k to 1M records
  payload     10/25/50 MB results through cat and cat --json
  teardown    how long servers take to exit after their stdin closes
  listing     bytes of jn inspect's listings (text, json, brief) of @demo and server-everything,
              and of mcporter's and mcpc's listings of server-everything
  serve       a host's calls through jn serve vs direct and vs an SDK-only proxy: added
              latency, calls/s at 16 in flight, idle memory
  session     calls through a jn session: a warm call vs an empty deno run, 100 sequential calls
              of an npx server vs cold ones, and a call vs mcpc's session

Options:
  --rounds N   timed rounds per command (default 7)
  --quick      fewer records and sizes (a smoke run; no 50 MB payload)
  --no-peers   skip the peer clients (no npm installs)
  --no-bundle  skip jn's bundle rows (no deno bundle)
  --write      also write bench/RESULTS.md: this run's tables and targets, then bench/TARGETS.md
               and bench/NOTES.md (hand-written, kept as they are), then the commands timed;
               the file is regenerated as a whole and formatted with deno fmt
  -h, --help   this text

Peers and generated files live in $JN_BENCH_HOME (default ~/.cache/jn-bench).`;

/** One line on stderr and exit 2 (a usage error: no stack trace). */
function usageError(message: string): never {
  Deno.stderr.writeSync(
    new TextEncoder().encode(`bench: ${message} (deno task bench --help for usage)\n`),
  );
  Deno.exit(2);
}

/** One line on stderr and exit 1. */
function fail(message: string): never {
  Deno.stderr.writeSync(new TextEncoder().encode(`bench: ${message}\n`));
  Deno.exit(1);
}

let parsed;
try {
  parsed = parseArgs({
    args: Deno.args,
    allowPositionals: true,
    options: {
      rounds: { type: "string", default: "7" },
      quick: { type: "boolean", default: false },
      "no-peers": { type: "boolean", default: false },
      "no-bundle": { type: "boolean", default: false },
      write: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
  });
} catch (error) {
  const message = error instanceof Error ? error.message : String(error);
  const unknown = /^Unknown option '([^']+)'/.exec(message);
  usageError(unknown ? `unknown option ${unknown[1]}` : message);
}
const { values, positionals } = parsed;
if (values.help) {
  Deno.stdout.writeSync(new TextEncoder().encode(USAGE + "\n"));
  Deno.exit(0);
}
const rounds = Number(values.rounds);
if (!Number.isInteger(rounds) || rounds < 1) {
  usageError(`--rounds must be a whole number ≥ 1, not "${values.rounds}"`);
}
for (const name of positionals) {
  if (!ALL.includes(name)) usageError(`unknown scenario "${name}"; known: ${ALL.join(", ")}`);
}
const scenarios = positionals.length ? [...new Set(positionals)] : ALL;

const say = (text: string) => Deno.stderr.writeSync(new TextEncoder().encode(text + "\n"));
const timeProblem = await timeAvailable();
if (timeProblem) fail(`/usr/bin/time (GNU time) is needed for peak RSS: ${timeProblem}`);
await prepareWork();

const unavailable: Record<string, string> = {};
const needsPeers = scenarios.some((s) => ["cold", "everything", "teardown", "listing"].includes(s));
if (needsPeers) {
  const nodeProblem = await install(NODE);
  if (nodeProblem) {
    say(`bench: Node 24 could not be installed (${nodeProblem}); peers use the system node`);
  }
  // The listing alone needs the peers it lists (mcporter, mcpc).
  const timed = scenarios.some((s) => ["cold", "everything", "teardown"].includes(s));
  const wanted = timed ? PEERS : PEERS.filter((peer) => ["mcporter", "mcpc"].includes(peer.slug));
  for (const peer of values["no-peers"] ? [] : wanted) {
    say(`bench: installing ${peer.packages.join(" ")} into ${HOME_DIR}/peers/${peer.slug}`);
    const problem = await install(peer);
    if (problem) unavailable[peer.slug] = problem;
  }
}
let bundle = !values["no-bundle"] &&
  scenarios.some((s) => ["cold", "everything", "startup", "put", "payload", "session"].includes(s));
if (bundle) {
  say("bench: deno task bundle (the build deno task compile compiles)");
  const problem = await buildBundle();
  if (problem) {
    say(`bench: bundling failed, no bundle rows: ${problem}`);
    bundle = false;
  }
}
const started = new Date();
const loadAtStart = await loadAverage();
const options: ScenarioOptions = {
  rounds,
  quick: values.quick,
  bundle,
  unavailable,
  onRound: (round) => say(`bench:   round ${round}/${rounds}`),
};
const peers = values["no-peers"] ? [] : PEERS;
const results: Record<string, Section[]> = {};
for (const name of scenarios) {
  say(`bench: ${name}`);
  const out: Section[] = results[name] = [];
  switch (name) {
    case "cold":
      out.push(...await coldScenario(TRIVIAL, { ...options, peers }));
      break;
    case "listing": {
      const problem = await install(EVERYTHING);
      if (problem) out.push({ title: "server-everything", body: `not installed: ${problem}` });
      else out.push(...await listingScenario({ unavailable, peers: !values["no-peers"] }));
      break;
    }
    case "teardown":
    case "everything": {
      const problem = await install(EVERYTHING);
      if (name === "teardown") {
        out.push(...await teardownScenario(options));
        break;
      }
      if (problem) {
        out.push({ title: "server-everything", body: `not installed: ${problem}` });
        break;
      }
      const server = [`${NODE_BIN_DIR}/node`, EVERYTHING_JS, "stdio"];
      out.push(
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
      out.push(...await startupScenario(options));
      break;
    case "put":
      out.push(...await putScenario(options));
      break;
    case "put-memory":
      out.push(...await putMemoryScenario(options));
      break;
    case "payload":
      out.push(...await payloadScenario(options));
      break;
    case "serve":
      out.push(...await serveScenario(options));
      break;
    case "session": {
      // Node 24 and server-everything for the tables, and mcpc (the one peer with sessions).
      await install(NODE);
      await install(EVERYTHING);
      const mcpc = peers.find((peer) => peer.slug === "mcpc");
      if (mcpc && !needsPeers) {
        const problem = await install(mcpc);
        if (problem) unavailable[mcpc.slug] = problem;
      }
      out.push(...await sessionScenario({ ...options, mcpc }));
      break;
    }
  }
}
const sections = Object.values(results).flat();
const targets = `## ${TARGETS_TITLE}\n\n${await targetsTable({ results, bundle })}\n`;
const head = await machine(started, loadAtStart);
const tables = sections.map((s) => `## ${s.title}\n\n${s.body}\n`);
const commands = commandList(sections);
// On stdout the targets come last, where a reader of the terminal looks.
const bytes = new TextEncoder().encode([head, ...tables, commands, targets].join("\n"));
for (let offset = 0; offset < bytes.length;) {
  offset += await Deno.stdout.write(bytes.subarray(offset));
}
if (values.write) {
  const path = `${ROOT}/bench/RESULTS.md`;
  await Deno.mkdir(`${ROOT}/bench`, { recursive: true });
  // The file is regenerated as a whole: anything edited by hand in RESULTS.md itself is lost.
  // TARGETS.md (the verdict on the targets, with before/after figures) and NOTES.md (the
  // optimisation steps) are written by hand from the runs and kept as they are; they follow this
  // run's tables and targets table.
  const read = (name: string) => Deno.readTextFile(`${ROOT}/bench/${name}`).catch(() => "");
  await Deno.writeTextFile(
    path,
    [
      `# jn benchmark results\n\n${head}`,
      ...tables,
      targets,
      await read("TARGETS.md") + await read("NOTES.md"),
      commands,
    ].join("\n"),
  );
  // Keep `deno fmt --check` clean (tables aligned as fmt aligns them).
  await new Deno.Command(DENO, { args: ["fmt", "--quiet", path], cwd: ROOT }).output();
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

async function loadAverage(): Promise<string> {
  // Through cat: procfs files report a size of 0, which Deno.readTextFile trusts.
  const out = await new Deno.Command("cat", { args: ["/proc/loadavg"], stderr: "null" }).output()
    .catch(() => undefined);
  const text = out ? new TextDecoder().decode(out.stdout) : "";
  return text.split(" ").slice(0, 3).join(" ") || "unknown";
}

async function machine(start: Date, loadAtStart: string): Promise<string> {
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
  const load = await loadAverage();
  const node = await sh(`${NODE_BIN_DIR}/node --version 2>/dev/null || node --version`);
  const busiest = Math.max(...[loadAtStart, load].map((l) => Number(l.split(" ")[0])));
  const busy = busiest > Number(nproc)
    ? [
      "",
      `**Busy machine**: a load average of ${busiest} on ${nproc} CPUs during this run; ` +
      "compare ratios within one table, not milliseconds across tables.",
    ]
    : [];
  return [
    `- Run: ${start.toISOString()} → ${new Date().toISOString()} ` +
    `(load average at the start: ${loadAtStart}; at the end: ${load})`,
    `- Machine: ${nproc} CPUs (${cpu}), ${ram} RAM, ${Deno.build.target}; ` +
    `Deno ${Deno.version.deno} (V8 ${Deno.version.v8}); peers on Node ${node}`,
    `- Command: \`deno task bench ${Deno.args.join(" ")}\` (rounds: ${rounds})`,
    `- Deno: ${DENO}`,
    ...busy,
    "",
  ].join("\n");
}
