/**
 * What an agent pays to learn a server: the bytes of each listing of the
 * demo server and of server-everything — `jn inspect --format text`,
 * `--format json`, and the brief format (lib/output/brief.ts, rendered
 * from the same inventory through the library until the CLI has `--format
 * brief`: issue 22's command table) — with each one's share of the largest.
 * Bytes, not time: one run is exact.
 *
 * Run alone: deno task bench listing
 *
 * @module
 */

import { inspect, open } from "../../../mod.ts";
import { formatBrief } from "../../../lib/output/brief.ts";
import { benchEnv, jn, ROOT } from "../env.ts";
import { EVERYTHING_JS } from "../peers.ts";
import { table } from "../table.ts";
import type { Section } from "./types.ts";

const SERVERS: [string, string][] = [
  ["@demo", "@demo"],
  ["server-everything", `mcp+node://${EVERYTHING_JS}?command=stdio`],
];

/** The byte table of the listings. */
export async function listingScenario(): Promise<Section[]> {
  const env = benchEnv();
  const rows: string[][] = [];
  for (const [label, source] of SERVERS) {
    const sizes: [string, number][] = [];
    for (const format of ["text", "json"]) {
      const [command, ...args] = jn(["inspect", source, "--format", format]);
      const out = await new Deno.Command(command, { args, env, cwd: ROOT, stderr: "null" })
        .output();
      sizes.push([`--format ${format}`, out.code === 0 ? out.stdout.length : NaN]);
    }
    await using conn = await open(source, { cwd: ROOT, env });
    const brief = formatBrief(await inspect(conn));
    sizes.push(["--format brief", new TextEncoder().encode(brief).length]);
    const largest = Math.max(...sizes.map(([, size]) => size).filter(Number.isFinite));
    for (const [format, size] of sizes) {
      rows.push([
        label,
        `jn inspect ${format}`,
        Number.isFinite(size) ? String(size) : "failed",
        Number.isFinite(size) ? `${Math.round((size / largest) * 100)}%` : "",
      ]);
    }
  }
  return [{
    title: "Listing bytes (what an agent reads to learn a server)",
    body: table(["server", "listing", "bytes", "of largest"], rows),
  }];
}
