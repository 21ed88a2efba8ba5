// deno-lint-ignore-file no-console
/**
 * Runs the official MCP conformance suite's server scenarios
 * (`@modelcontextprotocol/conformance server --url …`) against a server
 * directly and against `serve --http` in front of it, and prints both
 * summaries: a server that passes directly must pass behind serve too. Not
 * part of `deno task test` (tests/serve/conformance_test.ts runs it when a
 * server is given); it needs the npm registry the first time.
 *
 *   deno run -A scripts/serve_conformance.ts --url http://localhost:3000/mcp
 *   deno run -A scripts/serve_conformance.ts --url URL --version 0.1.16 --scenario tools-call
 *
 * A conformance-passing server: the suite repository's
 * examples/servers/typescript/everything-server.ts (`npm ci`, then
 * `PORT=3000 npx tsx everything-server.ts`, with Node >= 22 on PATH:
 * `npm install node@22` in a scratch folder gives one). Exit 0 when serve
 * fails no scenario the server passes directly.
 *
 * @module
 */

import { serve } from "../lib/client/serve.ts";

const VERSIONS = ["0.1.16", "0.2.0-alpha.12"];

/** One run's outcome: scenario → passed. */
export type Outcomes = Map<string, boolean>;

/** Runs the server scenarios of one suite version against `url`. */
export async function conformance(
  version: string,
  url: string,
  scenario?: string,
): Promise<Outcomes> {
  const args = [
    "run",
    "-A",
    `npm:@modelcontextprotocol/conformance@${version}`,
    "server",
    "--url",
    url,
  ];
  if (scenario) args.push("--scenario", scenario);
  const output = await new Deno.Command("deno", {
    args,
    env: { NO_COLOR: "1", FORCE_COLOR: "0" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  // deno-lint-ignore no-control-regex
  const text = new TextDecoder().decode(output.stdout).replace(/\x1b\[[0-9;]*m/g, "");
  const outcomes: Outcomes = new Map();
  for (const match of text.matchAll(/^([✓✗]) (\S+): \d+ passed, \d+ failed/gm)) {
    outcomes.set(match[2], match[1] === "✓");
  }
  return outcomes;
}

/** Serves `url` over HTTP on a free port for the length of `run`. */
export async function behindServe<T>(url: string, run: (served: string) => Promise<T>): Promise<T> {
  const served = await serve([`mcp+${url}`], {
    cwd: Deno.cwd(),
    env: Deno.env.toObject(),
    http: { port: 0 },
  });
  try {
    return await run(served.url!);
  } finally {
    await served.close();
  }
}

/** The scenarios that pass directly and fail behind serve. */
export function regressions(direct: Outcomes, served: Outcomes): string[] {
  return [...direct].filter(([name, passed]) => passed && served.get(name) !== true).map(([n]) =>
    n
  );
}

if (import.meta.main) {
  const args = [...Deno.args];
  let url = "";
  let scenario: string | undefined;
  const versions: string[] = [];
  while (args.length > 0) {
    const arg = args.shift();
    if (arg === "--url") url = args.shift() ?? "";
    else if (arg === "--version") versions.push(args.shift() ?? "");
    else if (arg === "--scenario") scenario = args.shift();
    else throw new Error(`unknown argument ${arg}`);
  }
  if (!url) throw new Error("--url URL of a conformance-passing server is needed");
  let failed = 0;
  for (const version of versions.length > 0 ? versions : VERSIONS) {
    const direct = await conformance(version, url, scenario);
    const served = await behindServe(url, (proxy) => conformance(version, proxy, scenario));
    const count = (outcomes: Outcomes) => [...outcomes.values()].filter(Boolean).length;
    const lost = regressions(direct, served);
    failed += lost.length;
    console.log(
      `conformance ${version}: direct ${count(direct)}/${direct.size}, ` +
        `behind serve ${count(served)}/${served.size}` +
        (lost.length > 0 ? `; lost behind serve: ${lost.join(", ")}` : ""),
    );
  }
  Deno.exit(failed === 0 ? 0 : 1);
}
