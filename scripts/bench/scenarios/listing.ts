/**
 * What an agent pays to learn a server: the bytes of each listing of the
 * demo server and of server-everything — `jn inspect --format text`,
 * `--format json` and `--format brief` — and of server-everything by the
 * peers an agent might use instead: mcporter's `list` (its default, its
 * `--brief` signatures and `--json`) and mcpc's `tools-list` (and
 * `--json`), installed from npm by the harness into `$JN_BENCH_HOME/peers`
 * (a peer that is not there is a row saying so, and a line on stderr). Each
 * row says whether the listing carries what a tool does (its description)
 * and the resources and prompts besides the tools. Bytes, not time: one run
 * is exact.
 *
 * Run alone: deno task bench listing
 *
 * @module
 */

import { benchEnv, jn, ROOT, WORK } from "../env.ts";
import { bin, EVERYTHING_JS, NODE_BIN_DIR } from "../peers.ts";
import { table } from "../table.ts";
import type { ScenarioOptions, Section } from "./types.ts";

/** One listing: who prints it, how, and what it carries. */
interface Listing {
  server: string;
  client: string;
  argv: string[];
  described: boolean;
  everything: boolean;
  env?: Record<string, string>;
  setup?: string[][];
  teardown?: string[][];
  /** Why it cannot run here. */
  missing?: string;
  /** A row of its own for the `tools:` section alone (what the peers list). */
  toolsRow?: true;
}

const SERVERS: [string, string][] = [
  ["@demo", "@demo"],
  ["server-everything", `mcp+node://${EVERYTHING_JS}?command=stdio`],
];

/** The byte table of the listings. */
export async function listingScenario(
  options: Pick<ScenarioOptions, "unavailable"> & { peers?: boolean } = {},
): Promise<Section[]> {
  const listings: Listing[] = [];
  for (const [server, source] of SERVERS) {
    for (const format of ["json", "text", "brief"]) {
      listings.push({
        server,
        client: "jn",
        argv: jn(["inspect", source, "--format", format]),
        described: true,
        everything: true,
        ...(format === "brief" ? { toolsRow: true as const } : {}),
      });
    }
  }
  if (options.peers !== false) listings.push(...peerListings(options.unavailable ?? {}));
  const rows: string[][] = [];
  const sizes = new Map<Listing, number>();
  for (const listing of [...listings]) {
    const text = await stdoutOf(listing);
    sizes.set(listing, text === undefined ? NaN : bytes(text));
    if (listing.toolsRow && text !== undefined) {
      const tools = { ...listing, client: "jn", everything: false, toolsRow: undefined };
      const section = text.slice(0, text.search(/^(resources|templates|prompts):$/m) >>> 0);
      listings.splice(listings.indexOf(listing) + 1, 0, tools);
      sizes.set(tools, bytes(section));
    }
  }
  for (const [server] of SERVERS) {
    const mine = listings.filter((l) => l.server === server);
    const largest = Math.max(...mine.map((l) => sizes.get(l)!).filter(Number.isFinite));
    for (const listing of mine) {
      const size = sizes.get(listing)!;
      rows.push([
        server,
        `${listing.client} ${shown(listing)}${
          listing.client === "jn" && !listing.everything ? " (its tools: lines)" : ""
        }`,
        listing.missing
          ? `not installed: ${listing.missing}`
          : Number.isFinite(size)
          ? String(size)
          : "failed",
        Number.isFinite(size) ? `${Math.round((size / largest) * 100)}%` : "",
        listing.described ? "yes" : "no",
        listing.everything ? "yes" : "no",
      ]);
    }
  }
  return [{
    title: "Listing bytes (what an agent reads to learn a server)",
    body: table(
      ["server", "listing", "bytes", "of largest", "what each tool does", "resources, prompts"],
      rows,
    ),
  }];
}

/** mcporter's and mcpc's listings of server-everything (run by Node 24). */
function peerListings(unavailable: Record<string, string>): Listing[] {
  const node = `${NODE_BIN_DIR}/node`;
  const server = [node, EVERYTHING_JS, "stdio"];
  const base = { server: "server-everything", everything: false };
  const mcporter = [node, bin("mcporter", "mcporter"), "list", "--stdio", server[0]];
  const stdioArgs = server.slice(1).flatMap((arg) => ["--stdio-arg", arg]);
  const config = `${WORK}/listing_mcpc.json`;
  Deno.writeTextFileSync(
    config,
    JSON.stringify({ mcpServers: { t: { command: server[0], args: server.slice(1) } } }),
  );
  const mcpc = [node, bin("mcpc", "mcpc")];
  // mcpc keeps its sessions in HOME/.mcpc: a home of the bench's own.
  const env = { HOME: `${WORK}/mcpc-home` };
  const session = "@jnlisting";
  const peers: Listing[] = [
    { ...base, client: "mcporter 0.12.3", argv: [...mcporter, ...stdioArgs], described: true },
    {
      ...base,
      client: "mcporter 0.12.3",
      argv: [...mcporter, ...stdioArgs, "--brief"],
      described: false,
    },
    {
      ...base,
      client: "mcporter 0.12.3",
      argv: [...mcporter, ...stdioArgs, "--json"],
      described: true,
    },
    ...[[], ["--json"]].map((json): Listing => ({
      ...base,
      client: "mcpc 0.2.6",
      argv: [...mcpc, session, "tools-list", ...json],
      described: json.length > 0,
      env,
      setup: [[...mcpc, "connect", `${config}:t`, session]],
      teardown: [[...mcpc, "close", session]],
    })),
  ];
  for (const peer of peers) {
    const slug = peer.client.startsWith("mcpc") ? "mcpc" : "mcporter";
    if (unavailable[slug] !== undefined) peer.missing = unavailable[slug];
  }
  return peers;
}

const bytes = (text: string) => new TextEncoder().encode(text).length;

/** What a listing prints on stdout; undefined when it fails or cannot run. */
async function stdoutOf(listing: Listing): Promise<string | undefined> {
  if (listing.missing) {
    Deno.stderr.writeSync(
      new TextEncoder().encode(`bench: NOT MEASURED ${listing.client}: ${listing.missing}\n`),
    );
    return undefined;
  }
  const env = { ...benchEnv(), ...listing.env };
  if (listing.env?.HOME) await Deno.mkdir(listing.env.HOME, { recursive: true });
  const run = (argv: string[]) =>
    new Deno.Command(argv[0], { args: argv.slice(1), env, cwd: ROOT, stderr: "null" }).output();
  for (const argv of listing.setup ?? []) await run(argv);
  try {
    const out = await run(listing.argv);
    return out.code === 0 ? new TextDecoder().decode(out.stdout) : undefined;
  } finally {
    for (const argv of listing.teardown ?? []) await run(argv);
  }
}

/** The listing's command line, short: its client's flags after the server. */
function shown(listing: Listing): string {
  if (listing.client === "jn") return `inspect --format ${listing.argv.at(-1)}`;
  const words = listing.argv.slice(2).filter((word) =>
    !word.startsWith("/") && word !== "--stdio" && word !== "--stdio-arg" && word !== "stdio" &&
    !word.startsWith("@")
  );
  return words.join(" ");
}
