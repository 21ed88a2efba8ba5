/**
 * Measures what the sandbox's handling of npx caches costs (docs/sandbox.md,
 * "What it costs"): one `jn cat … ?list=tools` of server-filesystem, run N
 * times each way, wall clock per run (median, min, max), plus the disk jn's
 * per-server cache takes. Warm runs go round-robin, one of each kind per
 * round, so that a busy machine slows them alike. Not a test; run it by
 * hand on a quiet machine:
 *
 *     deno run -P=jn tests/sandbox/cache_cost.ts [RUNS]
 *
 * Needs bubblewrap and the npm registry (the first-run rows download).
 *
 * @module
 */

import { DENO_DIR, MAIN, ROOT } from "../helpers.ts";
import { permissionFlags } from "../../lib/sandbox/permissions.ts";
import { FILESYSTEM_SPEC, serverFilesystem } from "./npm_servers.ts";

const RUNS = Number(Deno.args[0] ?? 10);

async function jn(args: string[], env: Record<string, string>, cwd: string): Promise<number> {
  const started = performance.now();
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--config", `${ROOT}/deno.json`, ...permissionFlags(), MAIN, ...args],
    env: { PATH: Deno.env.get("PATH") ?? "", DENO_DIR, NO_COLOR: "1", ...env },
    clearEnv: true,
    cwd,
    stdout: "null",
    stderr: "piped",
  }).output();
  const elapsed = performance.now() - started;
  if (!output.success) {
    throw new Error(`jn ${args.join(" ")} failed: ${new TextDecoder().decode(output.stderr)}`);
  }
  return elapsed;
}

function summary(name: string, times: number[]): string {
  const sorted = [...times].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)];
  const ms = (value: number) => `${Math.round(value)} ms`;
  return `| ${name} | ${times.length} | ${ms(median)} | ${ms(sorted[0])} | ${ms(sorted.at(-1)!)} |`;
}

async function du(path: string): Promise<string> {
  const output = await new Deno.Command("du", { args: ["-sh", path], stdout: "piped" }).output();
  return new TextDecoder().decode(output.stdout).split("\t")[0];
}

const install = await serverFilesystem();
if (!install) Deno.exit(1);
const data = await Deno.makeTempDir({ prefix: "jn-cost-data-" });
await Deno.writeTextFile(`${data}/a.txt`, "a\n");
const npx = `mcp+npx://${FILESYSTEM_SPEC}?command=${data}&list=tools`;
const node = `mcp+node://${install.script}?command=${data}&list=tools`;
const cached = { HOME: install.home };
const rows: string[] = [];

// Warm runs, round-robin (one of each per round) so that a busy machine slows all alike.
const home = await Deno.makeTempDir({ prefix: "jn-cost-home-" });
const own = await Deno.makeTempDir({ prefix: "jn-cost-xdg-" });
const fresh = { HOME: home, XDG_CACHE_HOME: own };
await jn(["cat", "--sandbox-net", "--sandbox-read", data, npx], fresh, data); // fills jn's cache
const warm: [string, () => Promise<number>][] = [
  ["node, unsandboxed", () => jn(["cat", node], cached, data)],
  ["node, --sandbox", () => jn(["cat", "--sandbox-read", data, node], cached, data)],
  ["npx, unsandboxed (cached; npx asks the registry)", () => jn(["cat", npx], cached, data)],
  [
    "npx, --sandbox, from ~/.npm/_npx (read-only)",
    () => jn(["cat", "--sandbox-read", data, npx], cached, data),
  ],
  [
    "npx, --sandbox, from jn's own cache (filled by one --sandbox-net run)",
    () => jn(["cat", "--sandbox-read", data, npx], fresh, data),
  ],
];
const times = warm.map((): number[] => []);
for (const [, run] of warm) await run(); // warm the OS's file cache and Deno's
for (let round = 0; round < RUNS; round++) {
  for (const [index, [, run]] of warm.entries()) times[index].push(await run());
}
warm.forEach(([name], index) => rows.push(summary(name, times[index])));
const size = await du(`${own}/jn/sandbox`);

// First runs: an empty home and an empty jn cache each time; npx downloads into jn's cache.
const firsts: number[] = [];
for (let i = 0; i < 3; i++) {
  const firstHome = await Deno.makeTempDir({ prefix: "jn-cost-home-" });
  const cache = await Deno.makeTempDir({ prefix: "jn-cost-xdg-" });
  const env = { HOME: firstHome, XDG_CACHE_HOME: cache };
  firsts.push(await jn(["cat", "--sandbox-net", "--sandbox-read", data, npx], env, data));
  for (const dir of [firstHome, cache]) await Deno.remove(dir, { recursive: true });
}
rows.push(summary("npx, --sandbox-net, first run (empty caches: downloads)", firsts));
for (const dir of [home, own, data]) await Deno.remove(dir, { recursive: true });

const cpu = new TextDecoder().decode(
  (await new Deno.Command("grep", { args: ["-m1", "model name", "/proc/cpuinfo"], stdout: "piped" })
    .output()).stdout,
).replace(/^.*:\s*/, "").trim();
// deno-lint-ignore no-console
console.log(
  [
    `${
      new Date().toISOString().slice(0, 10)
    }, ${Deno.build.os}, ${navigator.hardwareConcurrency} CPUs (${cpu}), deno ${Deno.version.deno}`,
    "",
    "| run | n | median | min | max |",
    "| --- | --- | --- | --- | --- |",
    ...rows,
    "",
    `jn's cache for this one server after its first run: ${size}`,
  ].join("\n"),
);
