/**
 * Support for the remote-server tests: local HTTP fixtures started as real
 * processes on 127.0.0.1, `@modelcontextprotocol/server-everything` installed
 * from npm once per machine (outside the repository), and jn runs with a
 * private HOME (where its auth files go).
 *
 * @module
 */

import { FIXTURES, ROOT, runJn, runJnHere, type RunOptions, type RunResult } from "../helpers.ts";

/** The server-everything release the tests pin. */
export const EVERYTHING_VERSION = "2026.8.31";

/** A server process the test started. */
export interface StartedServer {
  /** Its base URL (`http://127.0.0.1:PORT`). */
  url: string;
  /** What it wrote to stderr so far. */
  stderr(): string;
  /** Resolves once its stderr matches `pattern`; rejects if it ends first. */
  stderrMatches(pattern: RegExp): Promise<void>;
  /** Stops it and waits for it to exit. */
  stop(): Promise<void>;
}

/** Starts a Deno fixture server that prints its base URL as the first stdout line. */
export async function startFixture(file: string, args: string[] = []): Promise<StartedServer> {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-net=127.0.0.1",
      "--allow-read",
      "--allow-env",
      `${FIXTURES}/servers/${file}`,
      ...args,
    ],
    cwd: ROOT,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const errors = collect(child.stderr);
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let first = "";
  while (!first.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`Fixture ${file} exited before printing its URL: ${errors.text()}`);
    first += value;
  }
  reader.releaseLock();
  const drained = child.stdout.cancel().catch(() => {});
  return {
    url: first.trim(),
    stderr: () => errors.text(),
    stderrMatches: (pattern) => errors.until(pattern),
    stop: async () => {
      child.kill("SIGTERM");
      await child.status;
      await drained;
      await errors.done;
    },
  };
}

/** Starts a node server on a free port (`PORT` env) and waits until it answers HTTP. */
export async function startNodeServer(args: string[]): Promise<StartedServer> {
  const port = freePort();
  const child = new Deno.Command("node", {
    args,
    env: { PORT: String(port) },
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const errors = collect(child.stderr);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 15_000;
  for (;;) {
    try {
      await (await fetch(url)).body?.cancel();
      break;
    } catch {
      if (Date.now() > deadline) {
        child.kill("SIGKILL");
        throw new Error(`node ${args.join(" ")} did not start: ${errors.text()}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return {
    url,
    stderr: () => errors.text(),
    stderrMatches: (pattern) => errors.until(pattern),
    stop: async () => {
      child.kill("SIGTERM");
      await child.status;
      await errors.done;
    },
  };
}

function collect(stream: ReadableStream<Uint8Array>): {
  text(): string;
  until(pattern: RegExp): Promise<void>;
  done: Promise<void>;
} {
  let text = "";
  let wake: (() => void)[] = [];
  const notify = () => {
    for (const resolve of wake) resolve();
    wake = [];
  };
  const done = stream.pipeThrough(new TextDecoderStream()).pipeTo(
    new WritableStream({
      write: (chunk) => {
        text += chunk;
        notify();
      },
    }),
  ).catch(() => {}).finally(notify);
  let ended = false;
  void done.then(() => ended = true);
  const until = async (pattern: RegExp) => {
    while (!pattern.test(text)) {
      if (ended) throw new Error(`stderr ended without ${pattern}: ${text}`);
      await new Promise<void>((resolve) => wake.push(resolve));
    }
  };
  return { text: () => text, until, done };
}

/** A TCP port nobody listens on right now. */
export function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

let everything: Promise<string | undefined> | undefined;
let memory: Promise<string | undefined> | undefined;

/**
 * The path of server-everything's `dist/index.js`, installed with npm into
 * `~/.cache/jn-tests/` on first use (and reused); undefined when npm cannot
 * install it (the caller skips, saying why).
 */
export function serverEverything(): Promise<string | undefined> {
  everything ??= npmServer("@modelcontextprotocol/server-everything", EVERYTHING_VERSION);
  return everything;
}

/** The server-memory release the tests pin. */
export const MEMORY_VERSION = "2026.8.31";

/** The reference memory server's `dist/index.js`, installed like {@linkcode serverEverything}. */
export function serverMemory(): Promise<string | undefined> {
  memory ??= npmServer("@modelcontextprotocol/server-memory", MEMORY_VERSION);
  return memory;
}

/**
 * The path of an npm package's `dist/index.js` (`main`: another file of
 * it), installed with npm into `~/.cache/jn-tests/NAME-VERSION/` on first
 * use (and reused); undefined, saying why on stderr, when npm cannot install
 * it (the caller skips).
 */
export async function npmServer(
  name: string,
  version: string,
  main = "dist/index.js",
): Promise<string | undefined> {
  const home = Deno.env.get("HOME") ?? "/tmp";
  const dir = `${home}/.cache/jn-tests/${name.split("/").pop()}-${version}`;
  const path = `${dir}/node_modules/${name}/${main}`;
  if (await exists(path)) return path;
  // Install beside it and rename: parallel test files never see a half-installed tree.
  const temp = `${dir}.${crypto.randomUUID()}`;
  await Deno.mkdir(temp, { recursive: true });
  const output = await new Deno.Command("npm", {
    args: [
      "install",
      "--prefix",
      temp,
      "--no-audit",
      "--no-fund",
      "--silent",
      `${name}@${version}`,
    ],
    stdout: "null",
    stderr: "piped",
  }).output().catch((error) => ({
    success: false,
    stderr: new TextEncoder().encode(String(error)),
  }));
  if (!output.success) {
    await Deno.remove(temp, { recursive: true }).catch(() => {});
    // deno-lint-ignore no-console
    console.warn(
      `skipping the ${name} tests: npm could not install it: ${
        new TextDecoder().decode(output.stderr).trim().split("\n").pop()
      }`,
    );
    return undefined;
  }
  try {
    await Deno.rename(temp, dir);
  } catch {
    await Deno.remove(temp, { recursive: true }).catch(() => {});
  }
  return (await exists(path)) ? path : undefined;
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Runs jn with HOME set to `home` (auth files go there) and the real Deno
 * cache (tests/helpers.ts baseEnv gives DENO_DIR).
 */
export async function runJnAt(
  home: string,
  args: string[],
  options: RunOptions = {},
): Promise<RunResult> {
  return await runJn(args, { ...options, env: { HOME: home, ...options.env } });
}

/**
 * {@linkcode runJnAt} in this process (tests/helpers.ts runJnHere): HOME is
 * `home` for the CLI, which reads its environment only through its Io.
 */
export async function runJnHereAt(
  home: string,
  args: string[],
  options: Omit<RunOptions, "permissions"> = {},
): Promise<RunResult> {
  return await runJnHere(args, { ...options, env: { HOME: home, ...options.env } });
}

/** The fake browser for sign-in tests (approves and follows the redirect). */
export const FAKE_BROWSER = `${FIXTURES}/bin/fake_browser`;
