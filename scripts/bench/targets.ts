/**
 * The "Issue 16 targets" table: one row per target of issue 16, computed
 * from the scenario results of the same run — the figure, this run's value,
 * the target, met or not. Where the scenario timed jn both from source and
 * from its bundle (what `deno task compile` compiles), both rows. A row
 * whose scenario was not run (or whose rows were not timed) says so.
 *
 * Wall-time and RSS ratios are per round (the median over rounds of
 * jn ÷ reference in the same round), as in the scenario tables.
 *
 * @module
 */

import { type Measured, ratioTo } from "./measure.ts";
import { mib, ms, rssMetric, rssOf, table, timeOf } from "./table.ts";
import { bundleRow, RAW_DENO, SESSION_CLIENT } from "./scenarios/cold.ts";
import { cat, catBundle, payload } from "./scenarios/payload.ts";
import { PUT_16, PUT_16_BUNDLE, RAW_PIPELINED, SESSION_PIPELINED } from "./scenarios/put.ts";
import { EMPTY_IN_REPO, EMPTY_NO_CONFIG } from "./scenarios/startup.ts";
import {
  LOOP_COLD,
  LOOP_SESSION,
  SESSION_EMPTY,
  WARM_BUNDLE,
  WARM_SOURCE,
} from "./scenarios/session.ts";
import type { Section } from "./scenarios/types.ts";

/** The title of the table. */
export const TARGETS_TITLE = "Issue 16 targets (this run)";

/** What the targets are computed from. */
export interface TargetInputs {
  /** The sections of each scenario that ran, by scenario name. */
  results: Record<string, Section[]>;
  /** Whether the bundle rows were timed. */
  bundle: boolean;
}

type Verdict = { value: string; met: string };

const NOT_RUN = (why: string): Verdict => ({ value: `not run (${why})`, met: "—" });

/** The table (markdown) and a note on how to read it. */
export async function targetsTable(inputs: TargetInputs): Promise<string> {
  const rows: string[][] = [];
  const add = (figure: string, target: string, verdict: Verdict) =>
    rows.push([figure, verdict.value, target, verdict.met]);

  // Cold inspect (tools/list of the trivial server).
  const list = inputs.results.cold?.find((s) => s.part === "list");
  const coldRow = (name: string, bundled = false) => {
    if (!list) return "scenario cold";
    if (bundled && !inputs.bundle) return "--no-bundle";
    return find(list, name);
  };
  const inspect = [
    ["source", coldRow("jn inspect")],
    ["bundle", coldRow(bundleRow("list"), true)],
  ] as const;
  const sdkOnly = coldRow(SESSION_CLIENT);
  for (const [label, row] of inspect) {
    add(
      `cold \`inspect\` ÷ SDK-only minimal client, wall, ${label}`,
      "≤ 1.05×",
      ratio(row, sdkOnly, 1.05, "wall"),
    );
  }
  for (const [label, row] of inspect) {
    add(
      `cold \`inspect\` ÷ SDK-only minimal client, peak RSS, ${label}`,
      "≤ 1.1×",
      ratio(row, sdkOnly, 1.1, "rss"),
    );
  }
  for (const [label, row] of inspect) {
    add(
      `cold \`inspect\` ÷ raw Deno client, wall, ${label}`,
      "report",
      ratio(row, coldRow(RAW_DENO), undefined, "wall"),
    );
  }

  // Start-up of commands that talk to no server.
  const startup = inputs.results.startup?.[0];
  for (const command of ["--version", "--help", "profile list"]) {
    for (const bundled of [false, true]) {
      const name = `jn ${command}${bundled ? ", bundle" : ""}`;
      const reference = bundled ? EMPTY_NO_CONFIG : EMPTY_IN_REPO;
      const row = !startup
        ? "scenario startup"
        : bundled && !inputs.bundle
        ? "--no-bundle"
        : find(startup, name);
      add(
        `\`${command}\` ÷ empty \`deno run\`, ${
          bundled ? "bundle (÷ `--no-config`)" : "source (÷ in the repo)"
        }`,
        "≤ 1.3×",
        ratio(row, startup ? find(startup, reference) : "scenario startup", 1.3, "wall"),
      );
    }
  }

  // put, 16 in flight.
  const put = inputs.results.put?.[0];
  const putRow = (name: string, bundled = false) => {
    if (!put) return "scenario put";
    if (bundled && !inputs.bundle) return "--no-bundle";
    return find(put, name);
  };
  const puts = [["source", putRow(PUT_16)], ["bundle", putRow(PUT_16_BUNDLE, true)]] as const;
  for (const [label, row] of puts) {
    add(
      `\`put\`, 16 in flight, % of raw pipelined client, ${label}`,
      "≥ 60%",
      percent(row, putRow(RAW_PIPELINED), 60),
    );
  }
  for (const [label, row] of puts) {
    add(
      `\`put\`, 16 in flight, % of the SDK-only pipelined client (the design's floor), ${label}`,
      "report",
      percent(row, putRow(SESSION_PIPELINED)),
    );
  }
  add(
    "the SDK-only pipelined client itself, % of raw pipelined client",
    "report",
    percent(putRow(SESSION_PIPELINED), putRow(RAW_PIPELINED)),
  );

  // 50 MB through cat.
  const big = inputs.results.payload?.[0];
  for (const bundled of [false, true]) {
    const name = bundled ? catBundle(50) : cat(50);
    const row = !big
      ? "scenario payload"
      : bundled && !inputs.bundle
      ? "--no-bundle"
      : big.rows?.find((r) => r.bench.name === name) ?? "no 50 MB row: --quick stops at 25 MB";
    let memory = unusable(row);
    if (!memory) {
      const measured = row as Measured;
      const times = (rssOf(measured) * 1024) / await payload(50);
      memory = {
        value: `${times.toFixed(2)}× (${mib(rssOf(measured))} MiB)`,
        met: Number(times.toFixed(2)) <= 4 ? "yes" : "**no**",
      };
    }
    add(
      `50 MB result through \`cat\`, peak RSS ÷ payload, ${bundled ? "bundle" : "source"}`,
      "≤ 4×",
      memory,
    );
  }

  // Issue 25: calls through a session.
  const sessions = inputs.results.session;
  const part = (name: string) => sessions?.find((section) => section.part === name);
  const sessionRow = (section: Section | undefined, name: string, bundled = false) =>
    !sessions
      ? "scenario session"
      : bundled && !inputs.bundle
      ? "--no-bundle"
      : section
      ? find(section, name)
      : "not run";
  const warm = part("warm");
  for (
    const [label, name, bundled] of [["source", WARM_SOURCE, false], [
      "bundle",
      WARM_BUNDLE,
      true,
    ]] as const
  ) {
    add(
      `warm call through a session ÷ empty \`deno run --no-config\`, ${label} (issue 25)`,
      "≤ 1.5×",
      ratio(sessionRow(warm, name, bundled), sessionRow(warm, SESSION_EMPTY), 1.5, "wall"),
    );
  }
  const loop = part("loop");
  const speedup = ratio(
    sessionRow(loop, LOOP_COLD),
    sessionRow(loop, LOOP_SESSION),
    undefined,
    "wall",
  );
  add(
    "sequential calls of an npx server: cold ÷ through a session (issue 25)",
    "≥ 10×",
    speedup.met === "—" && speedup.value.startsWith("not")
      ? speedup
      : { ...speedup, met: Number(speedup.value.split("×")[0]) >= 10 ? "yes" : "**no**" },
  );
  const mcpc = part("mcpc");
  const mcpcRow = mcpc?.rows?.[1];
  add(
    "a call through a jn session ÷ a call through mcpc's session (issue 25)",
    "≤ 1×",
    ratio(sessionRow(mcpc, "jn cat through a session"), mcpcRow ?? "mcpc not timed", 1, "wall"),
  );

  return [
    table(["figure", "this run", "target", "met?"], rows, ["---", "---:", "---:", "---"]),
    "",
    "Ratios are medians of per-round ratios (jn ÷ reference in the same round); " +
    "the values in parentheses are the medians of each row. " +
    `The SDK-only minimal client is "${SESSION_CLIENT}" (clients/session_client.ts). ` +
    "Each start-up row is divided by the empty `deno run` that starts as it does: " +
    `jn from source by "${EMPTY_IN_REPO}" (the repo's deno.json), ` +
    `the bundle (run with \`--no-config\`) by "${EMPTY_NO_CONFIG}".`,
  ].join("\n");
}

/** The row named `name` of a section, or why there is none. */
function find(section: Section, name: string): Measured | string {
  return section.rows?.find((row) => row.bench.name === name) ?? `no row "${name}"`;
}

function unusable(row: Measured | string): Verdict | undefined {
  if (typeof row === "string") return NOT_RUN(row);
  if (row.failure) return { value: `not timed: ${row.failure.slice(0, 80)}`, met: "—" };
}

/** `row ÷ reference` per round (wall or peak RSS), against an upper bound if any. */
function ratio(
  row: Measured | string,
  reference: Measured | string,
  bound: number | undefined,
  metric: "wall" | "rss",
): Verdict {
  const problem = unusable(row) ?? unusable(reference);
  if (problem) return problem;
  const [a, b] = [row as Measured, reference as Measured];
  const value = metric === "wall" ? ratioTo(a, b) : ratioTo(a, b, rssMetric);
  const detail = metric === "wall"
    ? `${ms(timeOf(a))} vs ${ms(timeOf(b))} ms`
    : `${mib(rssOf(a))} vs ${mib(rssOf(b))} MiB`;
  return {
    value: `${value.toFixed(2)}× (${detail})`,
    // Judged at the precision shown: 1.054 is "1.05×", within "≤ 1.05×".
    met: bound === undefined ? "—" : Number(value.toFixed(2)) <= bound ? "yes" : "**no**",
  };
}

/** Calls/s of `row` as % of `reference`'s, per round, against a lower bound if any. */
function percent(row: Measured | string, reference: Measured | string, bound?: number): Verdict {
  const problem = unusable(row) ?? unusable(reference);
  if (problem) return problem;
  const [a, b] = [row as Measured, reference as Measured];
  // The same records in both: calls/s ratio = the inverse ratio of wall times.
  const value = 100 * ratioTo(b, a);
  return {
    value: `${value.toFixed(0)}% (${ms(timeOf(a))} vs ${ms(timeOf(b))} ms)`,
    met: bound === undefined ? "—" : Math.round(value) >= bound ? "yes" : "**no**",
  };
}
