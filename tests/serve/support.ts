/**
 * Helpers of the serve tests: serve as hosts run it — a process started by
 * the official SDK client over stdio (tests/fixtures/serve_main.ts, the
 * library's `serve()` until the CLI has the command), or `serve()` over
 * HTTP in the test's own process — and the fixture servers behind it.
 *
 * @module
 */

import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { serve, type ServeHandle, type ServeOptions } from "../../lib/client/serve.ts";
import { permissionFlags } from "../../lib/sandbox/permissions.ts";
import { baseEnv, FIXTURES, ROOT } from "../helpers.ts";

/** The entry that serves over stdio (or --http) through the library. */
export const SERVE_MAIN = `${FIXTURES}/serve_main.ts`;

/** A fixture server (tests/fixtures/servers/NAME) as a naked URI run by node, with switches. */
export function fixtureUri(name: string, switches: string[] = []): string {
  const query = new URLSearchParams();
  for (const flag of switches) query.append("command", flag);
  const tail = switches.length > 0 ? `?${query.toString().replaceAll("+", "%20")}` : "";
  return `mcp+node://${FIXTURES}/servers/${name}${tail}`;
}

/** The argv (after `deno`) that runs serve_main.ts with jn's permissions. */
export function serveArgs(args: string[]): string[] {
  return ["run", "--config", `${ROOT}/deno.json`, ...permissionFlags(), SERVE_MAIN, ...args];
}

/** Which era a client speaks: 2025 (`legacy`) or 2026-07-28 (`auto` negotiates it). */
export type Era = "legacy" | "auto";

/** A host: the SDK client connected to a serve process over stdio. */
export interface StdioHost {
  client: Client;
  transport: StdioClientTransport;
  /** What serve wrote on stderr so far. */
  stderr(): string;
  /** serve's pid. */
  pid: number;
  close(): Promise<void>;
}

/** Options of {@linkcode stdioHost}. */
export interface HostOptions {
  era?: Era;
  capabilities?: Record<string, unknown>;
  /** Called with the client before it connects (to set request handlers). */
  setup?: (client: Client) => void;
  env?: Record<string, string>;
  cwd?: string;
}

/** Starts serve over stdio as a host does and connects to it. */
export async function stdioHost(args: string[], options: HostOptions = {}): Promise<StdioHost> {
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: serveArgs(args),
    env: { ...baseEnv(), ...options.env },
    cwd: options.cwd ?? ROOT,
    stderr: "pipe",
  });
  let stderr = "";
  const decoder = new TextDecoder();
  transport.stderr?.on("data", (chunk: Uint8Array) => stderr += decoder.decode(chunk));
  const client = sdkClient(options);
  try {
    await client.connect(transport);
  } catch (error) {
    await transport.close();
    throw new Error(`serve did not connect: ${(error as Error).message}\n${stderr}`);
  }
  return {
    client,
    transport,
    stderr: () => stderr,
    pid: transport.pid!,
    close: () => client.close(),
  };
}

/** An SDK client as a host makes it. */
export function sdkClient(options: HostOptions = {}): Client {
  const client = new Client({ name: "test-host", version: "1.0.0" }, {
    capabilities: options.capabilities ?? {},
    versionNegotiation: { mode: options.era ?? "legacy" },
  });
  options.setup?.(client);
  return client;
}

/** Serves over HTTP on a free port in this process. */
export function httpServe(
  sources: string[],
  options: Partial<ServeOptions> = {},
): Promise<ServeHandle> {
  return serve(sources, {
    cwd: ROOT,
    env: baseEnv(),
    ...options,
    http: { port: 0, ...options.http },
  });
}

/** An SDK client connected to serve over Streamable HTTP. */
export async function httpHost(url: string, options: HostOptions = {}) {
  const client = sdkClient(options);
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  return {
    client,
    transport,
    close: async () => {
      await transport.terminateSession().catch(() => {});
      await client.close();
    },
  };
}

/** Waits until `check` holds (polling), or fails with `what`. */
export async function eventually(
  check: () => boolean | Promise<boolean>,
  what: string,
  ms = 10_000,
) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
