/**
 * Runs the official MCP conformance suite (`@modelcontextprotocol/conformance`, client mode)
 * against jn through scripts/conformance_adapter.sh, one scenario at a time (two at once by
 * default: the machine has two cores and every scenario starts jn several times), and prints
 * one line per scenario and a summary line per suite version. Not part of `deno task test`:
 * it needs the npm registry the first time and takes minutes.
 *
 *   deno task conformance                       # both pinned versions
 *   deno task conformance --version 0.1.16      # one version
 *   deno task conformance --scenario auth/dpop  # matching scenarios only (substring)
 *   deno task conformance --jobs 1 --verbose    # one at a time, failing checks shown
 *   deno task conformance --timeout 300000      # per-scenario bound in ms (default 120000)
 *
 * A scenario passes only when the suite ran checks for it (`Passed: P/T` with T > 0) and none
 * failed: a client that never completes the exchange leaves the suite with no checks (every one
 * SKIPPED), which the suite itself reports as passed; here it is a failure ("no checks ran").
 *
 * Exit 0 when every scenario that ran passed.
 *
 * @module
 */

const VERSIONS = ["0.1.16", "0.2.0-alpha.12"];
const root = new URL("..", import.meta.url).pathname;
const adapter = `${root}scripts/conformance_adapter.sh`;

interface Options {
  versions: string[];
  filters: string[];
  jobs: number;
  verbose: boolean;
  timeoutMs: number;
}

interface Outcome {
  scenario: string;
  passed: boolean;
  failures: string[];
}

function parseArgs(args: string[]): Options {
  const options: Options = {
    versions: [],
    filters: [],
    jobs: 2,
    verbose: false,
    timeoutMs: 120_000,
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const value = () => {
      const next = args[++i];
      if (next === undefined) throw new Error(`${arg} needs a value`);
      return next;
    };
    if (arg === "--version") options.versions.push(value());
    else if (arg === "--scenario") options.filters.push(value());
    else if (arg === "--jobs") options.jobs = Math.max(1, Number(value()) || 1);
    else if (arg === "--timeout") options.timeoutMs = Number(value());
    else if (arg === "--verbose") options.verbose = true;
    else throw new Error(`unknown argument ${arg}`);
  }
  if (options.versions.length === 0) options.versions = VERSIONS;
  return options;
}

async function conformance(version: string, args: string[]) {
  const command = new Deno.Command("deno", {
    args: ["run", "-A", `npm:@modelcontextprotocol/conformance@${version}`, ...args],
    cwd: root,
    env: { NO_COLOR: "1", FORCE_COLOR: "0" },
    stdout: "piped",
    stderr: "piped",
  });
  const output = await command.output();
  const text = new TextDecoder().decode(output.stdout) + new TextDecoder().decode(output.stderr);
  return { code: output.code, text };
}

async function scenarios(version: string): Promise<string[]> {
  const { text } = await conformance(version, ["list", "--client"]);
  return [...text.matchAll(/^\s+- (\S+)/gm)].map((match) => match[1]);
}

async function runScenario(version: string, scenario: string, timeoutMs: number) {
  const { code, text } = await conformance(version, [
    "client",
    "--command",
    adapter,
    "--scenario",
    scenario,
    "--timeout",
    String(timeoutMs),
  ]);
  // deno-lint-ignore no-control-regex
  const plain = text.replace(/\x1b\[[0-9;]*m/g, "");
  const failures = plain.split("\n")
    .filter((line) => /\b(FAILURE|WARNING)\b/.test(line))
    .map((line) => line.replace(/^\S+Z\s+/, "").trim());
  if (/Client timed out/.test(plain)) failures.push("client timed out");
  const tally = plain.match(/^Passed: (\d+)\/(\d+), (\d+) failed/m);
  const checks = tally ? Number(tally[2]) : 0;
  const failed = tally ? Number(tally[3]) : 0;
  if (checks === 0) failures.push("no checks ran (the client never completed the exchange)");
  const exited = plain.match(/Client exited with code (\d+)/);
  if (exited) {
    failures.push(`adapter exited with code ${exited[1]}`);
    // What jn said (its error line and hint), from the client's stderr the runner shows.
    failures.push(
      ...plain.split("\n").filter((line) => /^(jn|hint|conformance_adapter): /.test(line)),
    );
  }
  return { scenario, passed: code === 0 && checks > 0 && failed === 0, failures };
}

async function runVersion(version: string, options: Options): Promise<Outcome[]> {
  const all = await scenarios(version);
  const chosen = options.filters.length === 0
    ? all
    : all.filter((name) => options.filters.some((filter) => name.includes(filter)));
  const outcomes: Outcome[] = new Array(chosen.length);
  let next = 0;
  const worker = async () => {
    while (next < chosen.length) {
      const index = next++;
      const outcome = await runScenario(version, chosen[index], options.timeoutMs);
      outcomes[index] = outcome;
      const lines = [`${outcome.passed ? "✓" : "✗"} ${version} ${outcome.scenario}`];
      if (!outcome.passed && options.verbose) {
        lines.push(...outcome.failures.map((failure) => `    ${failure}`));
      }
      await Deno.stdout.write(new TextEncoder().encode(lines.join("\n") + "\n"));
    }
  };
  await Promise.all(Array.from({ length: options.jobs }, worker));
  return outcomes;
}

const options = parseArgs(Deno.args);
const summaries: string[] = [];
let failed = 0;
for (const version of options.versions) {
  const outcomes = await runVersion(version, options);
  const passed = outcomes.filter((outcome) => outcome.passed).length;
  const failing = outcomes.filter((outcome) => !outcome.passed).map((outcome) => outcome.scenario);
  failed += failing.length;
  summaries.push(
    `conformance ${version}: ${passed}/${outcomes.length} scenarios passed` +
      (failing.length > 0 ? `; failing: ${failing.join(", ")}` : ""),
  );
}
await Deno.stdout.write(new TextEncoder().encode(`\n${summaries.join("\n")}\n`));
Deno.exit(failed === 0 ? 0 : 1);
