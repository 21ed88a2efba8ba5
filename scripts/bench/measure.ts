/**
 * Runs commands in rotated rounds and reduces them to the numbers of the
 * tables: wall time of the whole process (spawn to exit, measured here with
 * `performance.now()`), peak RSS of the largest process of its tree (GNU
 * `/usr/bin/time -v`, "Maximum resident set size"), and per-round ratios to
 * a reference command.
 *
 * Round r runs the commands starting at index r (A B C, B C A, C A B, …), so
 * that no command always runs right after the same neighbour or at the same
 * point of a load swing. Every command runs once untimed first (warm-up:
 * Deno's caches, the page cache); that run's stdout is kept for `check`.
 *
 * @module
 */

/** One command of a scenario. */
export interface Bench {
  /** Row name. */
  name: string;
  argv: string[];
  /** A file to feed on stdin. */
  stdin?: string;
  env?: Record<string, string>;
  cwd?: string;
  /** Validates the warm-up run's stdout (and exit code); a failure marks the row. */
  check?: (stdout: string, code: number) => string | undefined;
  /** Keep stdout of timed runs (default: /dev/null). */
  note?: string;
}

/** One timed run. */
export interface Sample {
  ms: number;
  /** User + system CPU time of the process tree (less sensitive to load than wall time). */
  cpuMs: number;
  rssKb: number;
  code: number;
}

/** The samples of every command of a scenario. */
export interface Measured {
  bench: Bench;
  samples: Sample[];
  /** Set when the warm-up failed its check: the row is reported, not timed. */
  failure?: string;
}

const TIME = "/usr/bin/time";

/** Checks that GNU time is there; returns why not otherwise. */
export async function timeAvailable(): Promise<string | undefined> {
  try {
    const out = await new Deno.Command(TIME, { args: ["-v", "true"], stderr: "piped" }).output();
    const text = new TextDecoder().decode(out.stderr);
    return text.includes("Maximum resident set size") ? undefined : "not GNU time";
  } catch {
    return "missing (apt-get install -y time)";
  }
}

/** Runs one command once. */
export async function runOnce(
  bench: Bench,
  options: { keepStdout?: string } = {},
): Promise<Sample> {
  const report = await Deno.makeTempFile({ prefix: "jn-bench-time-" });
  const out = options.keepStdout ?? "/dev/null";
  const err = options.keepStdout ? `${options.keepStdout}.err` : "/dev/null";
  const script = `exec ${TIME} -v -o "$1" "\${@:5}" <"$2" >"$3" 2>"$4"`;
  const started = performance.now();
  const status = await new Deno.Command("bash", {
    args: ["-c", script, "bench", report, bench.stdin ?? "/dev/null", out, err, ...bench.argv],
    env: bench.env,
    cwd: bench.cwd,
    stdout: "null",
    stderr: "null",
  }).output();
  const ms = performance.now() - started;
  const text = await Deno.readTextFile(report).catch(() => "");
  await Deno.remove(report).catch(() => {});
  const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(text);
  const exit = /Exit status: (\d+)/.exec(text);
  const user = /User time \(seconds\): ([\d.]+)/.exec(text);
  const system = /System time \(seconds\): ([\d.]+)/.exec(text);
  return {
    ms,
    cpuMs: user && system ? (Number(user[1]) + Number(system[1])) * 1000 : NaN,
    rssKb: rss ? Number(rss[1]) : NaN,
    code: exit ? Number(exit[1]) : status.code,
  };
}

/** Options of {@linkcode measure}. */
export interface MeasureOptions {
  rounds: number;
  /** Count the checked first run as a timed one instead of a warm-up (long runs). */
  skipWarmup?: boolean;
  /** Called after each round (progress on stderr). */
  onRound?: (round: number) => void;
}

/** Warm-up, check, then `rounds` rotated rounds. */
export async function measure(benches: Bench[], options: MeasureOptions): Promise<Measured[]> {
  const results: Measured[] = benches.map((bench) => ({ bench, samples: [] }));
  for (const result of results) {
    const keep = await Deno.makeTempFile({ prefix: "jn-bench-out-" });
    const sample = await runOnce(result.bench, { keepStdout: keep });
    const stdout = await readHead(keep);
    const stderr = await readHead(`${keep}.err`);
    await Deno.remove(keep).catch(() => {});
    await Deno.remove(`${keep}.err`).catch(() => {});
    const problem = result.bench.check
      ? result.bench.check(stdout, sample.code)
      : sample.code === 0
      ? undefined
      : `exit ${sample.code}`;
    if (problem) result.failure = `${problem}; stderr: ${stderr.trim().slice(0, 300)}`;
    else if (options.skipWarmup) result.samples.push(sample);
  }
  const live = results.filter((r) => !r.failure);
  for (let round = options.skipWarmup ? 1 : 0; round < options.rounds; round++) {
    for (let i = 0; i < live.length; i++) {
      const result = live[(round + i) % live.length];
      result.samples.push(await runOnce(result.bench));
    }
    options.onRound?.(round + 1);
  }
  return results;
}

async function readHead(path: string, bytes = 1 << 20): Promise<string> {
  try {
    const file = await Deno.open(path);
    const buffer = new Uint8Array(bytes);
    const n = (await file.read(buffer)) ?? 0;
    file.close();
    return new TextDecoder().decode(buffer.subarray(0, n));
  } catch {
    return "";
  }
}

/** The median of numbers (mean of the middle two for an even count). */
export function median(values: number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Median over rounds of `sample / reference sample of the same round` (wall time, or `metric`). */
export function ratioTo(
  row: Measured,
  reference: Measured,
  metric: (sample: Sample) => number = (sample) => sample.ms,
): number {
  const n = Math.min(row.samples.length, reference.samples.length);
  const ratios: number[] = [];
  for (let i = 0; i < n; i++) ratios.push(metric(row.samples[i]) / metric(reference.samples[i]));
  return median(ratios);
}
