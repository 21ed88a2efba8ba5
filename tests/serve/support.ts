/**
 * Helpers of the serve tests: serve as hosts run it — `jn serve` (main.ts,
 * the production permission set) started by the official SDK client over
 * stdio or driven byte by byte, or the library's `serve()` over HTTP in the
 * test's own process (for what the CLI cannot express: a filter of the
 * test's own, events) — and the fixture servers behind it.
 *
 * @module
 */

import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { serve, type ServeHandle, type ServeOptions } from "../../lib/client/serve.ts";
import { baseEnv, FIXTURES, jnArgs, ROOT } from "../helpers.ts";

/** A fixture server (tests/fixtures/servers/NAME) as a naked URI run by node, with switches. */
export function fixtureUri(name: string, switches: string[] = []): string {
  const query = new URLSearchParams();
  for (const flag of switches) query.append("command", flag);
  const tail = switches.length > 0 ? `?${query.toString().replaceAll("+", "%20")}` : "";
  return `mcp+node://${FIXTURES}/servers/${name}${tail}`;
}

/** The argv (after `deno`) that runs `jn serve ARGS…` from source with jn's permissions. */
export function serveArgs(args: string[]): string[] {
  return jnArgs(["serve", ...args]);
}

/** Which era a client speaks: 2025 (`legacy`) or 2026-07-28 (`auto` negotiates it). */
export type Era = "legacy" | "auto";

/** A host: the SDK client connected to `jn serve` over stdio. */
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

/** An SDK client connected to serve over Streamable HTTP (with `headers` on every request). */
export async function httpHost(
  url: string,
  options: HostOptions = {},
  headers: Record<string, string> = {},
) {
  const client = sdkClient(options);
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
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

/** `jn serve --http 0 ARGS…` started as a user does; its URL once it listens. */
export async function startHttp(args: string[], env: Record<string, string> = {}) {
  const child = new Deno.Command(Deno.execPath(), {
    args: serveArgs(["--http", "0", ...args]),
    env: { ...baseEnv(), ...env },
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let stderr = "";
  let stdout = "";
  const reading = Promise.all([
    (async () => {
      for await (const chunk of child.stderr.pipeThrough(new TextDecoderStream())) stderr += chunk;
    })(),
    (async () => {
      for await (const chunk of child.stdout.pipeThrough(new TextDecoderStream())) stdout += chunk;
    })(),
  ]);
  const deadline = Date.now() + 30_000;
  let url: string | undefined;
  while (url === undefined) {
    url = /^jn: serving \S+ at (http:\/\/\S+)$/m.exec(stderr)?.[1];
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`jn serve --http did not listen:\n${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return {
    url,
    pid: child.pid,
    stderr: () => stderr,
    stdout: () => stdout,
    /** Sends `signal` and waits for the exit code. */
    async stop(signal: Deno.Signal = "SIGTERM"): Promise<number> {
      const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
      child.kill(signal);
      const status = await child.status;
      clearTimeout(timer);
      await reading;
      return status.code;
    },
  };
}

/**
 * One raw HTTP/1.1 POST over TCP, with exactly these headers (fetch would
 * not send a Host of the test's choosing): the status and body.
 */
export async function rawPost(
  url: string,
  body: unknown,
  headers: Record<string, string>,
): Promise<{ status: number; text: string }> {
  const { hostname, port, pathname } = new URL(url);
  const payload = new TextEncoder().encode(typeof body === "string" ? body : JSON.stringify(body));
  const head = [
    `POST ${pathname} HTTP/1.1`,
    "content-type: application/json",
    "accept: application/json, text/event-stream",
    `content-length: ${payload.length}`,
    "connection: close",
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ].join("\r\n");
  const conn = await Deno.connect({ hostname, port: Number(port) });
  try {
    await conn.write(new TextEncoder().encode(`${head}\r\n\r\n`));
    await conn.write(payload);
    const chunks: Uint8Array[] = [];
    const buffer = new Uint8Array(65536);
    for (;;) {
      const n = await conn.read(buffer).catch(() => null);
      if (n === null) break;
      chunks.push(buffer.slice(0, n));
      const text = new TextDecoder().decode(concat(chunks));
      // Enough to judge: the status line and, for a refusal, its small body.
      if (/^HTTP\/1\.1 200/.test(text) && text.includes("\r\n\r\n")) break;
    }
    const text = new TextDecoder().decode(concat(chunks));
    return { status: Number(/^HTTP\/1\.1 (\d+)/.exec(text)?.[1] ?? 0), text };
  } finally {
    conn.close();
  }
}

function concat(chunks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

/** A POST of `body` (JSON unless a string) as a Streamable HTTP client sends it. */
export function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...headers,
    },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
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

/** A host that speaks raw bytes to serve over stdio (for lifecycle and hostile tests). */
export interface RawHost {
  child: Deno.ChildProcess;
  /** Writes bytes (or a message as one JSON line) to serve's stdin. */
  write(data: string | Uint8Array | Record<string, unknown>): Promise<void>;
  /** The next JSON line serve wrote whose `id` is `id` (skipping notifications and others). */
  response(id: number | string, ms?: number): Promise<Record<string, unknown>>;
  /** Every line serve wrote to stdout so far. */
  lines(): string[];
  stderr(): string;
  /** The 2025 handshake: `initialize` (id 0), its answer, `notifications/initialized`. */
  handshake(): Promise<void>;
  /** Closes stdin (the host quit). */
  endInput(): Promise<void>;
  /** Waits for serve to exit (killing it after `ms`): its status. */
  exited(ms?: number): Promise<Deno.CommandStatus>;
}

/** The 2025 handshake's opening request. */
export const INITIALIZE = {
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: {
    protocolVersion: "2025-11-25",
    capabilities: {},
    clientInfo: { name: "raw", version: "1" },
  },
};

/** Starts `jn serve` over stdio with pipes a test drives byte by byte. */
export function rawHost(args: string[], env: Record<string, string> = {}): RawHost {
  const child = new Deno.Command(Deno.execPath(), {
    args: serveArgs(args),
    cwd: ROOT,
    env: { ...baseEnv(), ...env },
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  const out: string[] = [];
  let err = "";
  const waiters = new Set<() => void>();
  const wake = () => {
    for (const waiter of waiters) waiter();
  };
  (async () => {
    let partial = "";
    for await (const chunk of child.stdout.pipeThrough(new TextDecoderStream())) {
      partial += chunk;
      const parts = partial.split("\n");
      partial = parts.pop()!;
      out.push(...parts.filter((line) => line !== ""));
      wake();
    }
  })().catch(() => {});
  (async () => {
    for await (const chunk of child.stderr.pipeThrough(new TextDecoderStream())) {
      err += chunk;
      wake();
    }
  })().catch(() => {});
  const encoder = new TextEncoder();
  let inputOpen = true;
  const write = async (data: string | Uint8Array | Record<string, unknown>) => {
    const bytes = data instanceof Uint8Array
      ? data
      : encoder.encode(typeof data === "string" ? data : `${JSON.stringify(data)}\n`);
    await writer.write(bytes);
  };
  const host: RawHost = {
    child,
    write,
    handshake: async () => {
      await write(INITIALIZE);
      await host.response(0);
      await write({ jsonrpc: "2.0", method: "notifications/initialized" });
    },
    response: async (id, ms = 15_000) => {
      const find = () =>
        out.map((line) => {
          try {
            return JSON.parse(line);
          } catch {
            return undefined;
          }
        }).find((message) => message?.id === id && !("method" in message));
      const deadline = Date.now() + ms;
      for (;;) {
        const found = find();
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no response ${id}; stderr:\n${err}`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 100);
          waiters.add(() => {
            clearTimeout(timer);
            resolve();
          });
        });
        waiters.clear();
      }
    },
    lines: () => out,
    stderr: () => err,
    endInput: async () => {
      if (!inputOpen) return;
      inputOpen = false;
      await writer.close().catch(() => {});
    },
    exited: async (ms = 20_000) => {
      const timer = setTimeout(() => {
        try {
          child.kill("SIGKILL");
        } catch { /* gone */ }
      }, ms);
      const status = await child.status;
      clearTimeout(timer);
      if (inputOpen) {
        inputOpen = false;
        await writer.close().catch(() => {});
      }
      return status;
    },
  };
  return host;
}
